"""Every text the phrase bank can give the TTS, as espeak-ng's Greek voice reads it (`-x`): its
terms as the seed transcribes them, and every word's syllables and primary stress as written."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations

import pytest

from phrases.bank import ENTRIES, bank
from phrases.render import Prompt, render
from rules.announcement import Announcement, Code, forms
from rules.command import MAX_FRAME, Kind
from rules.normalise import normalise
from voice.live.prompts import PROMPTS, LoopCode
from voice.speaking.respelling import for_espeak

# The regulation's terms as the seed transcribes them (αντρε, α σεβαλ, τουσ, λιμπρ, «για
# πέντε» …), in espeak-ng's phonemes: ' before the stressed vowel.
SEED = {
    "entrees": "adr'e",
    "dedans": "ded'an",
    "restees_dedans": "rest'e ded'an",
    "a_cheval": "asev'al",
    "touchent": "t'us",
    "libres": "l'ibr",
    "for_five": "j'a p'ede",
    "for_three": "j'a tr'is",
}
# Players with a spoken form, as `--players "ΠΑΠΑΔΟΠΟΥΛΟΣ=Παπαδόπουλος,Jaspers=Γιάσπερς"`, and
# surnames said as written («Γεωργίου» lost its ε: [jorˈʝiu]).
NAMES = {"ΠΑΠΑΔΟΠΟΥΛΟΣ": "Παπαδόπουλος", "Jaspers": "Γιάσπερς",
         "Χατζηγεωργίου": "Χατζηγεωργίου", "Γεωργιάδης": "Γεωργιάδης"}
LETTERS = "αβγδεζηθικλμνξοπρστυφχψω"
CLAUSE_MARKS = set(",.:;!?")  # a text with these is read on its own (it spans output lines)


def phonemes(texts: list[str]) -> list[str]:
    """espeak-ng's Greek phonemes of each text as the espeak driver gives it (respelt);
    secondary stress (,) dropped, clauses joined."""
    plain = [t for t in texts if not CLAUSE_MARKS & set(t)]
    marked = [t for t in texts if CLAUSE_MARKS & set(t)]

    def read(text: str) -> list[str]:
        done = subprocess.run(["espeak-ng", "-v", "el", "-q", "-x"], input=for_espeak(text),
                              check=True, capture_output=True, text=True)
        return [line.strip().replace(",", "") for line in done.stdout.splitlines() if line.strip()]

    with ThreadPoolExecutor(max_workers=4) as pool:
        # Texts without clause marks one a line, in two batches; each line gives one line.
        halves = [plain[: len(plain) // 2], plain[len(plain) // 2 :]]
        batches = list(pool.map(lambda half: read("\n".join(half)), halves))
        singles = list(pool.map(lambda text: " ".join(read(text)), marked))
    assert [len(b) for b in batches] == [len(h) for h in halves]
    said = dict(zip(plain, batches[0] + batches[1], strict=True))
    said.update(zip(marked, singles, strict=True))
    return [said[t] for t in texts]


def every_text() -> list[str]:
    """Every text the bank gives the TTS (a tone's empty one aside): each form of each
    announcement, with every ball on every spot, every frame and pair of frames, every number
    (as points and in the genitive)."""
    phrases = bank()
    players = tuple(NAMES)
    texts: list[str] = []
    for code in Code:
        for variant in forms(code):
            base = {"code": code, "variant": variant, "player": players[1], "points": 21,
                    "scores": ((players[0], 75), (players[1], 3))}
            texts.append(render(Announcement(**base), names=NAMES).text)
            texts += [render(Announcement(**base, spots=((ball, spot),)), names=NAMES).text
                      for ball in phrases.balls for spot in phrases.spots]
            frames = [(n,) for n in range(1, MAX_FRAME + 1)]
            frames += list(combinations(range(1, MAX_FRAME + 1), 2))
            texts += [render(Announcement(**base, frames=f), names=NAMES).text for f in frames]
    texts += [render(Announcement(Code.SCORE, player=name, points=1), names=NAMES).text
              for name in NAMES]
    for key in sorted(PROMPTS):
        code, _, kind = key.partition(".")
        said = Prompt(LoopCode(code), player=players[1], variant=Kind(kind) if kind else None)
        texts.append(render(said, names=NAMES).text)
    texts += [phrases.numbers.spoken(n) for n in range(phrases.numbers.thousands + 1)]
    texts += [phrases.points_genitive[n != 1].format(phrases.numbers.genitive(n))
              for n in range(1, phrases.numbers.thousands + 1)]
    return [text for text in dict.fromkeys(texts) if text]  # a tone alone has no words


TONOS, DIALYTIKA = "\u0301", "\u0308"
VOWELS = set("αεηιουω")
DIGRAPHS = {"αι", "ει", "οι", "ου", "υι"}  # one vowel sound each
# ι, υ, ει, οι, υι unaccented next to another vowel may be no syllable of their own (μια [mɲa],
# στεκιά [stecˈa]) or one (τρία [ˈtria]).
GLIDES = {"ι", "υ", "ει", "οι", "υι"}
SYLLABIC = set("aeiou")  # espeak-ng's Greek vowels (its non-syllabic i is I)
WORD = re.compile(r"[^\W\d_]+|\d+")


def nuclei(word: str) -> list[tuple[str, bool, bool]]:
    """The written vowel sounds of a word, in order: (letters, accented, maybe no syllable)."""
    letters: list[tuple[str, set[str]]] = []
    for ch in unicodedata.normalize("NFD", word.lower()):
        if unicodedata.combining(ch) and letters:
            letters[-1][1].add(ch)
        elif not unicodedata.combining(ch):
            letters.append((ch, set()))
    found: list[tuple[str, bool, int]] = []  # letters, accented, index of the first letter
    i = 0
    while i < len(letters):
        (ch, marks), (after, after_marks) = letters[i], (letters + [("", set())])[i + 1]
        if ch not in VOWELS:
            i += 1
            continue
        paired = TONOS not in marks and DIALYTIKA not in after_marks
        if paired and ch + after in DIGRAPHS:
            found.append((ch + after, TONOS in after_marks, i))
        elif paired and ch in "αεη" and after == "υ":  # αυ ευ ηυ: υ is [v], [f]
            found.append((ch, TONOS in after_marks, i))
        else:
            found.append((ch, TONOS in marks, i))
            paired = False
        i += 2 if paired else 1
    ends = {start + len(sound) for sound, _, start in found}
    starts = {start for _, _, start in found}
    return [(sound, accented, sound in GLIDES and not accented
             and (start in ends or start + len(sound) in starts))
            for sound, accented, start in found]


def greek_faults(word: str, said: str) -> list[str]:
    """How espeak-ng's phonemes `said` of one written `word` miss its syllables or stress: the
    accent mark puts the primary stress; a word written without one is a single syllable."""
    sounds = nuclei(word)
    syllables = [c for c in said if c in SYLLABIC or c == "'"]
    # the syllable each primary stress falls on: the vowels before its mark
    stressed = [k - syllables[:k].count("'") for k, c in enumerate(syllables) if c == "'"]
    count = len(syllables) - len(stressed)
    accents = [k for k, (_, accented, _) in enumerate(sounds) if accented]
    optional = [maybe for _, _, maybe in sounds]
    if not accents:  # a monosyllable; a clitic may lose its vowel before one (θ' άλλαζε)
        return [] if count <= 1 else [f"{count} syllables, not one"]
    faults = []
    if not len(sounds) - sum(optional) <= count <= len(sounds):
        faults.append(f"{count} syllables, not {len(sounds) - sum(optional)} to {len(sounds)}")
    if len(stressed) != len(accents):
        faults.append(f"{len(stressed)} primary stresses, not {len(accents)}")
    for k, at in zip(accents, stressed, strict=False):
        before, after = sum(optional[:k]), sum(optional[k + 1:])
        if not (k - before <= at <= k and len(sounds) - 1 - k - after <= count - 1 - at
                <= len(sounds) - 1 - k):
            faults.append(f"primary stress on syllable {at + 1}, not the accented one")
    return faults


@pytest.fixture(scope="module")
def read_out() -> dict[str, str]:
    texts = every_text()
    return dict(zip(texts, phonemes(texts), strict=True))


def test_the_texts_cover_every_entry_of_the_bank(read_out: dict[str, str]) -> None:
    # Every form renders, and its text is among those read (a sample: the plain score).
    assert len(read_out) > 2 * bank().numbers.thousands + len(ENTRIES) + len(PROMPTS)
    assert "Γιάσπερς είκοσι ένα" in read_out


def test_each_regulation_term_sounds_as_the_seed_transcribes_it(read_out: dict[str, str]) -> None:
    terms = bank().terms
    assert set(SEED) == set(terms)
    for name, term in terms.items():
        said = f" {normalise(term.spoken)} "  # as words, accents and case aside
        texts = [text for text in read_out if said in f" {normalise(text)} "]
        assert texts, f"no text says {name}"
        for text in texts:
            assert SEED[name] in read_out[text], (text, read_out[text])


def test_a_cheval_is_no_longer_read_alpha(read_out: dict[str, str]) -> None:
    cheval = render(Announcement(Code.A_CHEVAL)).text
    assert read_out[cheval] == "asev'al"  # [asevˈal]; «α σεβάλ» was read «άλφα σεβάλ»


def test_no_text_is_read_as_letter_names(read_out: dict[str, str]) -> None:
    names = set(phonemes(list(LETTERS)))
    assert "'alfa" in names and len(names) == len(LETTERS)
    for text, said in read_out.items():
        assert not names & set(said.split()), (text, said)


def test_no_text_switches_language(read_out: dict[str, str]) -> None:
    # espeak-ng marks a word it reads in another language's voice as (en) … (el).
    switched = {text: said for text, said in read_out.items() if "(" in said}
    assert not switched


def test_every_word_has_its_syllables_and_primary_stress_as_written(
    read_out: dict[str, str],
) -> None:
    # A word with an accent mark: espeak-ng's primary stress on that vowel (not only its
    # secondary, as its dictionary gives «ένα», «ενός», «μία» inside a sentence), and a syllable
    # for each vowel («Χατζηγεωργίου» lost the ε of γεω); a word without one in one syllable
    # («ποιος» was read in two). Numbers in digits (200–900, 1000 …) are stressed once.
    faults = {}
    for text, said in read_out.items():
        written, heard = WORD.findall(text), said.split()
        assert len(written) == len(heard), (text, said)
        for word, phonemes_ in zip(written, heard, strict=True):
            wrong = ([] if phonemes_.count("'") == 1 else ["not stressed once"]) \
                if word.isdigit() else greek_faults(word, phonemes_)
            if wrong:
                faults[word] = (phonemes_, wrong, text)
    assert not faults


@pytest.mark.parametrize(("word", "said", "faults"), [
    ("ένα", "'ena", []),
    ("ένα", "ena", ["0 primary stresses, not 1"]),
    ("ενός", "'enos", ["primary stress on syllable 1, not the accented one"]),
    ("ποιος", "p'i;os", ["2 syllables, not one"]),
    ("ποιος", "pC'os", []),
    ("Χατζηγεωργίου", "xadzijorj'i;u", ["5 syllables, not 6 to 6",
                                         "primary stress on syllable 4, not the accented one"]),
    ("Χατζηγεωργίου", "xadzijeorj'i;u", []),
    ("στεκιά", "stec'a", []),
    ("τρία", "tr'i;a", []),
    ("προσπάθειές", "prosp'aTC'es", []),
    ("ευχαριστώ", "efxarist'o", []),
    ("τάιμ", "t'aIm", []),
])
def test_the_written_word_says_where_the_stress_and_syllables_are(
    word: str, said: str, faults: list[str],
) -> None:
    assert greek_faults(word, said) == faults
