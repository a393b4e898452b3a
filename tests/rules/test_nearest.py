"""Free-form matching refuses rather than guesses: whole utterances, sound-alike spellings."""

import pytest

from rules.command import Command, Kind
from rules.discipline import discipline
from rules.grammar import grammar
from rules.vocabulary import Vocabulary

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")


def nearest(text: str, name: str = "cadre-47-2") -> tuple[Command | None, float]:
    return Vocabulary(PLAYERS, discipline(name)).nearest(text)


@pytest.mark.parametrize("text", [
    "Παπαδόπουλος",  # a bare surname is not «ξεκινά Παπαδόπουλος»
    "πόντος εκκλώ",  # a word no phrase of «πόντος» accounts for
    "καραμπόλα τρέπετε",
    "πόντος κάτι κάτι",
    "πόντος λέω",  # «λέω» is close to «έξω»: no hesitation
])
def test_words_the_command_does_not_account_for_make_it_no_command(text):
    assert nearest(text)[0] is None


def test_a_sound_alike_spelling_is_the_phrase_when_nothing_else_is_near():
    assert nearest("Πόδος") == (Command(Kind.POINT), 100.0)
    assert nearest("εκτος τραπεζιου κοκινι", "three-cushion")[0] == Command(
        Kind.BALL_OFF, balls=("red",))


@pytest.mark.parametrize("text,kind", [
    ("ναι πόντος έξω", Kind.POINT_OUT),
    ("λοιπόν ε διόρθωση", Kind.UNDO),
    ("σκορ παρακαλώ", Kind.SCORE),
])
def test_at_most_two_hesitations_are_passed_over(text, kind):
    assert nearest(text)[0] == Command(kind)


def test_three_hesitations_are_too_many():
    assert nearest("ναι λοιπόν ε διορθοση")[0] is None
    assert nearest("ναι λοιπόν ε διόρθωση")[0] is None


def test_words_merged_or_split_by_the_recogniser_still_match():
    assert nearest("ποντοσεξω")[0] == Command(Kind.POINT_OUT)
    assert nearest("πον τος")[0] == Command(Kind.POINT)
    assert nearest("α σε βαλ")[0] == Command(Kind.A_CHEVAL)


def test_a_frame_heard_as_a_digit_or_misspelled_is_the_number():
    assert nearest("αντρε 5")[0] == Command(Kind.ENTREES, frames=(5,))
    assert nearest("αντρε πεντη")[0] == Command(Kind.ENTREES, frames=(5,))


def test_two_commands_almost_as_near_are_ambiguous():
    # Two surnames that sound alike: «ξεκινε» is no phrase, so the text is matched freely.
    vocabulary = Vocabulary(("Ράλλης", "Ράλης"), discipline("libre"))
    assert vocabulary.nearest("ξεκινα ραλησ")[0] is not None  # heard exactly: one of them
    command, confidence = vocabulary.nearest("ξεκινε ραλις")
    assert command is None and confidence >= 80  # either player: ask again


@pytest.mark.parametrize("written,sound", [
    ("ποντοσ", "ποδοσ"), ("μπιλια", "βιλια"), ("αγγυρα", "αγιρα"), ("αγκυρα", "αγιρα"),
    ("αλλαγη", "αλαγι"), ("ειναι", "ινε"), ("ωρα", "ορα"), ("τουσ", "τuσ"),
])
def test_fold_spells_a_word_as_it_sounds(written, sound):
    assert grammar().fold(written) == sound
