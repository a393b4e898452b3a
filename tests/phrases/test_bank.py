"""The phrase bank and rendering: written forms, Greek pronunciation, channels, order."""

import json
from dataclasses import asdict
from importlib.resources import files

import pytest

from phrases.bank import BankError, Channel, bank, parse_bank
from phrases.render import render
from rules.announcement import Announcement, Code, forms
from rules.errors import RefereeError

SHIPPED = files("phrases").joinpath("bank.toml").read_text(encoding="utf-8")


def without(entry: str) -> str:
    """The shipped bank's source without the line of `entry`."""
    lines = SHIPPED.splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(f'"{entry}" =')]
    assert len(kept) == len(lines) - 1, entry
    return "".join(kept)

TERMS = {
    "entrees": ("ENTRÉES", "αντρέ"),
    "dedans": ("DEDANS", "ντεντάν"),
    "restees_dedans": ("RESTÉES DEDANS", "ρεστέ ντεντάν"),
    "a_cheval": ("À CHEVAL", "ασεβάλ"),  # one word: a lone «α» is read as «άλφα»
    "touchent": ("TOUCHENT", "τους"),
    "libres": ("LIBRES", "λιμπρ"),
}


@pytest.mark.parametrize("code,forms", TERMS.items())
def test_each_zone_term_has_its_french_form_greek_pronunciation_and_meaning(code, forms):
    term = bank().terms[code]
    assert (term.written, term.spoken) == forms
    assert term.meaning


@pytest.mark.parametrize("code", ["entrees", "dedans", "restees_dedans"])
def test_zone_calls_speak_greek_and_show_french(code):
    utterance = render(Announcement(code, variant="frame"))
    assert (utterance.display, utterance.text) == TERMS[code]
    assert utterance.channel == "pa"


def test_score_is_spoken_surname_then_points_in_words_and_shown_in_digits():
    utterance = render(Announcement("score", player="Παπαδόπουλος", points=195))
    assert utterance.text == "Παπαδόπουλος εκατόν ενενήντα πέντε"
    assert utterance.display == "Παπαδόπουλος 195"
    assert (utterance.player, utterance.points, utterance.channel) == ("Παπαδόπουλος", 195, "pa")


@pytest.mark.parametrize(
    "number,spoken",
    [
        (0, "μηδέν"), (1, "ένα"), (11, "έντεκα"), (20, "είκοσι"), (21, "είκοσι ένα"),
        (75, "εβδομήντα πέντε"), (89, "ογδόντα εννέα"), (100, "εκατό"), (101, "εκατόν ένα"),
        (200, "200"), (275, "200 εβδομήντα πέντε"), (999, "900 ενενήντα εννέα"),
        (1000, "1000"), (4321, "4321"),
    ],
)
def test_numbers_are_given_to_the_tts_as_espeak_reads_them_right(number, spoken):
    # espeak-ng's Greek voice says digits 70–89 wrongly and words 200–900 with a syllable more.
    assert bank().numbers.spoken(number) == spoken


def test_repeat_score_speaks_both_totals():
    utterance = render(Announcement("repeat_score", scores=(("Α", 75), ("Β", 3))))
    assert utterance.text == "Α εβδομήντα πέντε, Β τρία"
    assert utterance.display == "Α 75, Β 3"


def test_reminders():
    assert render(Announcement("for_five")).text == "για πέντε"
    assert render(Announcement("for_three")).text == "για τρεις"


def test_private_prompts_go_to_the_headset_only():
    assert render(Announcement("not_understood")).channel == "headset"
    assert render(Announcement("refused", variant="break_taken", player="Χ")).channel == "headset"
    assert render(Announcement("touchent", variant="reminder")).channel == "headset"


def test_ball_spots_are_named():
    utterance = render(Announcement("ball_off_table", spots=(("red", "foot"),)))
    assert "κόκκινη" in utterance.text and "αρχική καραμπόλα" in utterance.text


def test_a_bank_entry_with_an_unknown_placeholder_is_rejected():
    source = """
[terms]
[balls]
[spots]
[announcements]
score = { channel = "pa", text = "{surname}", display = "x" }
"""
    with pytest.raises(ValueError, match="'score'.*unknown placeholders"):
        parse_bank(source)


def test_a_bank_entry_with_a_bad_channel_is_rejected():
    source = '[terms]\n[balls]\n[spots]\n[announcements]\nwinner = { channel = "tv" }\n'
    with pytest.raises(ValueError, match="'winner': channel"):
        parse_bank(source)


def test_a_bank_missing_an_entry_is_rejected_when_it_loads_naming_the_entry():
    with pytest.raises(BankError, match="no entry for refused.no_break$"):
        parse_bank(without("refused.no_break"))


@pytest.mark.parametrize(
    "entry,fault",
    [
        ("scores", "'scores' is not an announcement code"),
        ("refused.no_such_reason", "the rules never make this form; they make refused.already_"),
        ("entrees", "the rules never make this form; they make entrees.anchor, entrees.frame, "),
    ],
)
def test_a_bank_entry_for_no_form_the_rules_make_is_rejected_naming_it(entry, fault):
    line = f'"{entry}" = {{ channel = "pa", text = "x", display = "x" }}\n'
    source = SHIPPED.replace("[announcements]\n", f"[announcements]\n{line}")
    with pytest.raises(BankError, match=f"bank entry '{entry}': {fault}"):
        parse_bank(source)


@pytest.mark.parametrize("entry", ["taken", "mic_lost", "taken.point"])
def test_a_prompt_of_the_edge_among_the_rules_announcements_is_rejected(entry):
    line = f'"{entry}" = {{ channel = "headset", text = "x", display = "x" }}\n'
    source = SHIPPED.replace("[announcements]\n", f"[announcements]\n{line}")
    with pytest.raises(BankError, match=f"bank entry '{entry}': 'taken|mic_lost' is not an"):
        parse_bank(source)


def test_a_prompt_that_names_a_rules_announcement_is_rejected():
    line = '"refused.match_over" = { channel = "headset", text = "x", display = "x" }\n'
    source = SHIPPED.replace("[prompts]\n", f"[prompts]\n{line}")
    with pytest.raises(BankError, match="'refused' is an announcement of the rules"):
        parse_bank(source)


def test_the_prompts_are_kept_as_the_bank_lists_them():
    source = SHIPPED.replace("[prompts]\n", '[prompts]\nhello = { channel = "headset", '
                             'text = "γεια", display = "γεια" }\n')
    assert parse_bank(source).prompts["hello"].text == "γεια"


def test_bank_errors_are_the_projects_errors_and_still_value_errors():
    assert issubclass(BankError, RefereeError) and issubclass(BankError, ValueError)


def test_every_form_of_every_announcement_renders_from_the_shipped_bank():
    for code in Code:
        for variant in forms(code):
            utterance = render(Announcement(code, player="Α", points=1, variant=variant))
            assert utterance.code is code and utterance.channel in set(Channel)


def test_an_utterance_serialises_to_the_same_json_as_plain_strings():
    utterance = render(Announcement("score", player="Α", points=3))
    assert (utterance.code, utterance.channel) == (Code.SCORE, Channel.PA)
    assert json.dumps(asdict(utterance), ensure_ascii=False) == (
        '{"code": "score", "channel": "pa", "text": "Α τρία", "display": "Α 3", '
        '"player": "Α", "points": 3, "pieces": ["Α", "τρία"], "chime": false}'
    )


def test_named_frames_are_spoken_in_words_and_shown_in_digits():
    one = render(Announcement("entrees", variant="frame", frames=(5,)))
    assert (one.text, one.display) == ("αντρέ, κάδρο πέντε", "ENTRÉES, κάδρο 5")
    two = render(Announcement("entrees", variant="frame", frames=(4, 5)))
    assert two.text == "αντρέ, κάδρα τέσσερα και πέντε"


SPOKEN = {"ΠΑΠΑΔΟΠΟΥΛΟΣ": "Παπαδόπουλος", "Jaspers": "Γιάσπερς"}


def test_a_surname_is_said_in_its_spoken_form_and_shown_as_written():
    winner = render(Announcement("winner", player="Jaspers"), names=SPOKEN)
    assert (winner.text, winner.display, winner.player) == (
        "νικητής: Γιάσπερς", "ΝΙΚΗΤΗΣ: Jaspers", "Jaspers"
    )
    scores = render(Announcement("repeat_score", scores=(("ΠΑΠΑΔΟΠΟΥΛΟΣ", 2), ("Jaspers", 1))),
                    names=SPOKEN)
    assert (scores.text, scores.display) == (
        "Παπαδόπουλος δύο, Γιάσπερς ένα", "ΠΑΠΑΔΟΠΟΥΛΟΣ 2, Jaspers 1"
    )


def test_surname_and_number_are_said_apart_with_a_pause_between():
    said = render(Announcement("score", player="Jaspers", points=21), names=SPOKEN)
    assert said.pieces == ("Γιάσπερς", "είκοσι ένα") and said.text == "Γιάσπερς είκοσι ένα"
    scores = render(Announcement("repeat_score", scores=(("Α", 2), ("Β", 1))))
    assert scores.spoken_pieces() == ("Α", "δύο, Β", "ένα")
    assert render(Announcement("for_five")).spoken_pieces() == ("για πέντε",)


def test_the_non_routine_announcements_ask_for_the_chime():
    chimed = {
        key for key, template in bank().templates.items() if template.chime
    }
    assert chimed == {"break_start", "extension", "extension.single_stroke", "winner", "playoff",
                      "set", "set.and_match"}
    assert render(Announcement("winner", player="Α")).chime
    assert not render(Announcement("score", player="Α", points=1)).chime


def test_a_chime_that_is_not_true_or_false_is_a_bank_error():
    source = SHIPPED.replace('winner = { channel = "pa", chime = true,',
                             'winner = { channel = "pa", chime = "yes",')
    with pytest.raises(BankError, match="'winner': chime must be true or false"):
        parse_bank(source)
