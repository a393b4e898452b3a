"""The phrase grammar: Greek phrases as a recogniser writes them → commands."""

import tomllib
from importlib.resources import files

import pytest
from match_helpers import PLAYERS

from rules.command import Kind
from rules.grammar import grammar, parse

REQUIRED = {
    "πόντος": Kind.POINT,
    "καραμπόλα": Kind.POINT,
    "πόντος έξω": Kind.POINT_OUT,
    "πόντος αντρέ": Kind.POINT_ENTREES,
    "άστοχο": Kind.MISS,
    "αλλαγή": Kind.MISS,
    "φάουλ": Kind.FOUL,
    "αντρέ": Kind.ENTREES,
    "αντρέ άγκυρα": Kind.ENTREES_ANCHOR,
    "έξω": Kind.OUT,
    "α σεβάλ": Kind.A_CHEVAL,
    "λιμπρ": Kind.LIBRES,
    "τους": Kind.TOUCHENT,
    "στήσιμο": Kind.RESPOT,
    "σφάλμα έξι": Kind.FAULT_SIX,
    "εκτός τραπεζιού κόκκινη": Kind.BALL_OFF,
    "διάλειμμα": Kind.BREAK,
    "τέλος διαλείμματος": Kind.BREAK_END,
    "διόρθωση": Kind.UNDO,
    "σκορ": Kind.SCORE,
    "ξεκινά Παπαδόπουλος": Kind.STARTS,
}


@pytest.mark.parametrize("text,kind", REQUIRED.items())
def test_every_required_phrase(text, kind):
    assert parse(text, PLAYERS).kind is kind


@pytest.mark.parametrize(
    "heard",
    ["ΠΟΝΤΟΣ ΕΞΩ", "ποντος εξω", "Πόντος, έξω!", "  πόντος   έξω  ", "πόντοσ έξω"],
)
def test_case_accents_punctuation_and_spacing_do_not_matter(heard):
    assert parse(heard, PLAYERS).kind is Kind.POINT_OUT


@pytest.mark.parametrize("heard", ["σφάλμα έξι", "σφάλμα 6", "σφαλμα εξι", "ΣΦΑΛΜΑ 6"])
def test_number_words_and_digits_are_the_same(heard):
    assert parse(heard, PLAYERS).kind is Kind.FAULT_SIX


@pytest.mark.parametrize("heard", ["", "γεια σου", "πόντος πόντος", "αντρέ αντρέ", "ξεκινά"])
def test_what_matches_nothing_gives_none(heard):
    assert parse(heard, PLAYERS) is None


def test_surnames_are_matched_without_accents_with_an_article_and_near_misses():
    for heard in ("ξεκινα παπαδοπουλος", "ξεκινά ο Παπαδόπουλος", "ξεκινάει παπαδοπουλο"):
        assert parse(heard, PLAYERS).player == "Παπαδόπουλος"
    assert parse("διάλειμμα κωνσταντινου", PLAYERS).player == "Κωνσταντίνου"
    assert parse("ξεκινά Γεωργίου", PLAYERS) is None


def test_balls_off_the_table_with_a_covered_spot():
    command = parse("εκτός τραπεζιού λευκή και κόκκινη καλυμμένη από κίτρινη", PLAYERS)
    assert command.balls == ("white", "red")
    assert command.covered == (("red", "yellow"),)
    assert parse("εκτός τραπεζιού πράσινη", PLAYERS) is None
    assert parse("εκτός τραπεζιού λευκή λευκή", PLAYERS) is None


def test_the_grammar_file_names_only_known_commands():
    data = tomllib.loads(files("rules").joinpath("grammar.toml").read_text(encoding="utf-8"))
    assert set(data["commands"]) <= {k.value for k in Kind}
    assert Kind.TICK.value not in data["commands"]  # the clock is never spoken


def test_sentences_for_a_recogniser_keep_greek_spelling_and_fill_the_slots():
    sentences = grammar().sentences(PLAYERS)
    assert "πόντος έξω" in sentences and "ξεκινά παπαδόπουλος" in sentences
    assert "εκτός τραπεζιού κόκκινη" in sentences
    assert all(parse(s, PLAYERS) is not None for s in sentences)


def test_frames_are_one_or_two_distinct_numbers_from_one_to_nine():
    assert parse("αντρέ κάδρο πέντε", PLAYERS).frames == (5,)
    assert parse("αντρε 4 5", PLAYERS).frames == (4, 5)
    assert parse("πόντος αντρέ άγκυρα δύο", PLAYERS).frames == (2,)
    for bad in ("αντρέ δέκα", "αντρέ 3 3", "αντρέ 1 2 3", "αντρέ κάδρο"):
        assert parse(bad, PLAYERS) is None


@pytest.mark.parametrize("heard", ["αντρέ ¹", "αντρέ ²³", "αντρέ " + "5" * 5000, "αντρέ ٣"])
def test_frames_that_are_not_plain_small_numbers_match_nothing(heard):
    assert parse(heard, PLAYERS) is None
