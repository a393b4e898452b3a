"""What espeak-ng is given in place of the words and letters it misreads (espeak.toml)."""

import pytest

from voice.speaking.respelling import for_espeak
from voice.speaking.synthesis import Synthesiser


@pytest.mark.parametrize(("text", "given"), [
    ("είκοσι ένα", "είκοσι ˈένα"),
    ("Ένα λεπτό", "ˈΈνα λεπτό"),
    ("είκοσι ˈένα", "είκοσι ˈένα"),  # marked once only
    ("παράταση ενός πόντου, μία στεκιά", "παράταση ˈενός πόντου, ˈμία στεκιά"),
    ("ποιος ξεκινά;", "πιος ξεκινά;"),
    ("ΠΟΙΑ μπάλα;", "πια μπάλα;"),
    ("Χατζηγεωργίου, Γεώργιος, γεύση", "Χατζηγιεωργίου, Γιεώργιος, γιεύση"),
    ("γεια, γειτονιά, Κουγέας, ενόσω, έναντι", "γεια, γειτονιά, Κουγέας, ενόσω, έναντι"),
])
def test_only_the_words_and_letters_espeak_misreads_are_respelt(text: str, given: str) -> None:
    assert for_espeak(text) == given


def test_the_espeak_driver_gives_espeak_the_respelt_text() -> None:
    # espeak-ng's samples vary by a few from one render to the next; the stress it gives the
    # respelt «ένα» makes it some 300 samples (15 ms) longer than the unstressed one.
    synth = Synthesiser(cache=0)
    said = [len(synth.render(text)[0]) for text in ("είκοσι ένα", "είκοσι ˈένα")]
    assert abs(said[0] - said[1]) < 50, said
