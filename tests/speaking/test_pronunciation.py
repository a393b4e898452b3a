"""Every text the phrase bank can give the TTS, as espeak-ng's Greek voice reads it (`-x`)."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations

import pytest

from phrases.bank import ENTRIES, bank
from phrases.render import Prompt, render
from rules.announcement import Announcement, Code, forms
from rules.command import MAX_FRAME, Kind
from rules.normalise import normalise
from voice.live.prompts import PROMPTS, LoopCode

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
# Players with a spoken form, as `--players "ΠΑΠΑΔΟΠΟΥΛΟΣ=Παπαδόπουλος,Jaspers=Γιάσπερς"`.
NAMES = {"ΠΑΠΑΔΟΠΟΥΛΟΣ": "Παπαδόπουλος", "Jaspers": "Γιάσπερς"}
LETTERS = "αβγδεζηθικλμνξοπρστυφχψω"
CLAUSE_MARKS = set(",.:;!?")  # a text with these is read on its own (it spans output lines)


def phonemes(texts: list[str]) -> list[str]:
    """espeak-ng's Greek phonemes of each text; secondary stress (,) dropped, clauses joined."""
    plain = [t for t in texts if not CLAUSE_MARKS & set(t)]
    marked = [t for t in texts if CLAUSE_MARKS & set(t)]

    def read(text: str) -> list[str]:
        done = subprocess.run(["espeak-ng", "-v", "el", "-q", "-x"], input=text, check=True,
                              capture_output=True, text=True)
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
    """Every text the bank gives the TTS: each form of each announcement, with every ball on
    every spot, every frame and pair of frames, every number (as points and in the genitive)."""
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
    for key in sorted(PROMPTS):
        code, _, kind = key.partition(".")
        said = Prompt(LoopCode(code), player=players[1], variant=Kind(kind) if kind else None)
        texts.append(render(said, names=NAMES).text)
    texts += [phrases.numbers.spoken(n) for n in range(phrases.numbers.thousands + 1)]
    texts += [phrases.points_genitive[n != 1].format(phrases.numbers.genitive(n))
              for n in range(1, phrases.numbers.thousands + 1)]
    return list(dict.fromkeys(texts))


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
