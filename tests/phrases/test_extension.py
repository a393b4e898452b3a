"""The extension call in the genitive: «παράταση τριών πόντων», «ενός πόντου»."""

import shutil
import subprocess

import pytest

from phrases.bank import bank
from phrases.render import render
from rules.announcement import Announcement
from rules.state import MAX_DISTANCE

LARGEST = -(-MAX_DISTANCE // 10)  # the largest extension a match can have (Article 4)
NOMINATIVE = {"ένα", "τρία", "τέσσερα", "δεκατρία", "δεκατέσσερα"}  # the forms that decline
# How espeak-ng's Greek voice must read each genitive word the bank gives it: stressed on the
# last syllable, and «-κοσιών» with [sj], as the digits 200–900 are read.
ESPEAK = {
    "ενός": "en'os",
    "τριών": "tri;'on",
    "τεσσάρων": "tess'aron",
    "δεκατριών": "D,ekatri;'on",
    "δεκατεσσάρων": "D,ekatess'aron",
    "διακοσιών": "D,i;akosj'on",
    "τριακοσιών": "tr,i;akosj'on",
    "τετρακοσιών": "t,etrakosj'on",
    "πεντακοσιών": "p,edakosj'on",
    "εξακοσιών": ",eksakosj'on",
    "επτακοσιών": ",eptakosj'on",
    "οκτακοσιών": ",oktakosj'on",
    "εννιακοσιών": ",en^akosj'on",
    "χιλιών": "Cil^'on",
}


@pytest.mark.parametrize(
    "points,spoken",
    [
        (1, "ενός πόντου"), (2, "δύο πόντων"), (3, "τριών πόντων"), (4, "τεσσάρων πόντων"),
        (13, "δεκατριών πόντων"), (14, "δεκατεσσάρων πόντων"), (21, "είκοσι ενός πόντων"),
        (74, "εβδομήντα τεσσάρων πόντων"), (100, "εκατό πόντων"), (101, "εκατόν ενός πόντων"),
        (200, "διακοσιών πόντων"), (314, "τριακοσιών δεκατεσσάρων πόντων"),
        (1000, "χιλιών πόντων"),
    ],
)
def test_the_extension_is_called_in_the_genitive(points, spoken):
    utterance = render(Announcement("extension", points=points))
    assert utterance.text == f"ισοπαλία, παράταση {spoken}"
    assert utterance.display == f"ΠΑΡΑΤΑΣΗ {points}"


def test_the_single_stroke_extension_is_called_in_the_genitive():
    utterance = render(Announcement("extension", points=3, variant="single_stroke"))
    assert utterance.text == "ισοπαλία, παράταση τριών πόντων, μία στεκιά"


def test_every_extension_a_match_can_have_is_spoken_in_the_genitive_words():
    for number in range(1, LARGEST + 1):
        words = bank().numbers.genitive(number).split()
        assert not NOMINATIVE & set(words), number
        assert not any(word.isdigit() for word in words), number  # espeak reads digits nominative


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_espeak_reads_each_genitive_word_right():
    assert set(bank().numbers.genitive_words.values()) == set(ESPEAK)
    for word, phonemes in ESPEAK.items():
        heard = subprocess.run(
            ["espeak-ng", "-v", "el", "-q", "-x", word],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        assert heard == phonemes, word
