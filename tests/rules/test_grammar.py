"""The phrase grammar: Greek phrases as a recogniser writes them → commands."""

import json
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from rules.command import Kind
from rules.grammar import grammar, load, parse
from rules.sentences import GrammarError
from tests.support.match import PLAYERS

# Every phrase the grammar understood when each combination of synonyms was listed by hand.
BEFORE_TEMPLATES = Path(__file__).parents[1] / "data" / "phrases_before_templates.tsv"

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
    "α σεβάλ άγκυρα": Kind.A_CHEVAL_ANCHOR,
    "α σεβάλ αντρέ άγκυρα": Kind.A_CHEVAL_ANCHOR,
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


def test_a_surname_is_heard_in_its_spoken_form_and_taken_as_written():
    players, spoken = ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Jaspers"), ("Παπαδόπουλος", "Γιάσπερς")
    assert parse("ξεκινά Γιάσπερς", players, spoken).player == "Jaspers"
    assert parse("διάλειμμα παπαδοπουλος", players, spoken).player == "ΠΑΠΑΔΟΠΟΥΛΟΣ"
    assert parse("ξεκινά jaspers", players, spoken).player == "Jaspers"  # the written form too
    assert parse("ξεκινά Γιάσπερς", players) is None  # unknown without its spoken form


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


def test_every_phrase_understood_before_the_templates_still_says_the_same():
    changed = []
    for line in BEFORE_TEMPLATES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        text, command = line.split("\t")
        heard = parse(text, PLAYERS)
        if heard is None or heard.to_dict() != json.loads(command):
            changed.append((text, heard))
    assert changed == []


@pytest.mark.parametrize("carom", ["πόντος", "πόντο", "καραμπόλα", "ΚΑΡΑΜΠΟΛΑ"])
@pytest.mark.parametrize(
    "rest,kind,frames",
    [
        ("", Kind.POINT, ()),
        ("έξω", Kind.POINT_OUT, ()),
        ("έξω άγκυρα", Kind.POINT_OUT_ANCHOR, ()),
        ("αντρέ", Kind.POINT_ENTREES, ()),
        ("αντρέ πέντε", Kind.POINT_ENTREES, (5,)),
        ("αντρέ κάδρα δύο και τρία", Kind.POINT_ENTREES, (2, 3)),
        ("αντρέ άγκυρα", Kind.POINT_ENTREES_ANCHOR, ()),
        ("αντρέ άγκυρα κάδρο 9", Kind.POINT_ENTREES_ANCHOR, (9,)),
        ("αντρέ άγκυρα τέσσερα πέντε", Kind.POINT_ENTREES_ANCHOR, (4, 5)),
    ],
)
def test_every_way_of_saying_a_carom_goes_with_every_continuation(carom, rest, kind, frames):
    # «καραμπόλα αντρέ πέντε», «πόντο αντρέ», «πόντο έξω» were not understood before.
    command = parse(f"{carom} {rest}", PLAYERS)
    assert (command.kind, command.frames) == (kind, frames)


def test_each_synonym_of_a_command_is_understood():
    assert parse("ασεβάλ", PLAYERS).kind is Kind.A_CHEVAL
    assert parse("ασεβάλ αντρέ άγκυρα", PLAYERS).kind is Kind.A_CHEVAL_ANCHOR
    assert parse("ελεύθερες", PLAYERS).kind is Kind.LIBRES
    assert parse("τουσέ", PLAYERS).kind is Kind.TOUCHENT
    assert parse("ξεκινάει ο Κωνσταντίνου", PLAYERS).player == "Κωνσταντίνου"


def grammar_with(commands: str) -> str:
    """The package's grammar file with its commands replaced by `commands`."""
    text = files("rules").joinpath("grammar.toml").read_text(encoding="utf-8")
    return text[: text.index("[commands]")] + "[commands]\n" + commands


def test_a_grammar_file_with_templates_loads():
    loaded = load(grammar_with('point = ["<carom> [πάλι]"]\nstarts = ["ξεκινά {player}"]'))
    assert loaded.parse("πόντο πάλι", PLAYERS).kind is Kind.POINT
    assert loaded.sentences(PLAYERS)[:2] == ["πόντος πάλι", "πόντο πάλι"]


@pytest.mark.parametrize(
    "commands,fault",
    [
        ('point = ["(πόντος"]', "sentence template '(πόντος': '(' is not closed by ')'"),
        ('point = ["<shot>"]', "sentence template '<shot>': no synonyms '<shot>'"),
        ('break = ["{player} διάλειμμα"]', "sentence template '{player} διάλειμμα': a sentence"),
        ('break = ["{player}"]', "sentence template '{player}': a sentence is words"),
        ('out = ["έξω {colour}"]', "sentence template 'έξω {colour}': a sentence is words, "
                                   "then at most one of {player}, {balls}, {frames}"),
        ('shot = ["σουτ"]', "grammar command 'shot': no such command"),
        ('point = ["πόντος"]\nmiss = ["άστοχο | πόντος"]',
         "sentence template 'άστοχο | πόντος': 'πόντος' already means point"),
    ],
)
def test_a_bad_grammar_file_is_an_error_that_quotes_the_line(commands, fault):
    with pytest.raises(GrammarError) as error:
        load(grammar_with(commands))
    assert str(error.value).startswith(fault)
