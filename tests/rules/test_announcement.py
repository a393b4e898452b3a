"""The closed vocabularies of the core: announcement codes, variants, zone kinds, errors."""

import json

import pytest

from rules.announcement import Announcement, Code, Form, Reason, forms
from rules.discipline import DISCIPLINES
from rules.errors import RefereeError
from rules.match import ReplayError
from rules.zone_kind import ZoneKind
from tests.support.match import say, start


def test_a_code_and_variant_given_as_strings_become_their_members():
    announcement = Announcement("refused", variant="break_taken")
    assert announcement.code is Code.REFUSED and announcement.variant is Reason.BREAK_TAKEN
    assert Announcement("entrees", variant="frame").variant is ZoneKind.FRAME
    assert Announcement("turn", variant="starts").variant is Form.STARTS


@pytest.mark.parametrize(
    "code,variant,fault",
    [
        ("scores", None, "unknown announcement code 'scores'"),
        ("score", "frame", "score has no variant 'frame'"),
        ("refused", "no_such_reason", "refused has no variant 'no_such_reason'"),
        ("entrees", None, "entrees has no variant None"),  # a zone call always names its zone
    ],
)
def test_an_announcement_the_rules_never_make_cannot_be_built(code, variant, fault):
    with pytest.raises(ValueError, match=fault):
        Announcement(code, variant=variant)


def test_members_read_as_their_strings_in_comparisons_formatting_and_json():
    assert Code.SCORE == "score" and f"{Code.SCORE}.{ZoneKind.FRAME}" == "score.frame"
    assert json.dumps([Code.REFUSED, Reason.NO_BREAK, Form.UNDO]) == (
        '["refused", "no_break", "undo"]'
    )


def test_every_refusal_reason_is_a_variant_of_refused_and_zone_calls_name_every_zone():
    assert forms(Code.REFUSED) == set(Reason)
    assert forms(Code.DEDANS) == set(ZoneKind)
    assert forms(Code.SCORE) == {None}


def test_the_zone_kinds_of_the_disciplines():
    zones = {name: rules.zone for name, rules in DISCIPLINES.items()}
    assert zones == {
        "libre": ZoneKind.TRIANGLE, "cadre-47-2": ZoneKind.FRAME, "cadre-71-2": ZoneKind.FRAME,
        "cadre-47-1": ZoneKind.FRAME, "one-cushion": None, "three-cushion": None,
    }


def test_only_three_cushion_re_spots_touchent_on_the_spots():
    assert [n for n, rules in DISCIPLINES.items() if rules.respot_on_spots] == ["three-cushion"]


def test_the_match_holds_zone_kinds_and_announces_members():
    match, said = say(start("libre"), "αντρέ")
    assert [z.kind for z in match.zones] == [ZoneKind.TRIANGLE]
    assert match.zones[0].kind is ZoneKind.TRIANGLE
    assert said[-1].code is Code.ENTREES and said[-1].variant is ZoneKind.TRIANGLE


def test_replay_errors_are_the_projects_errors_and_still_value_errors():
    assert issubclass(ReplayError, RefereeError) and issubclass(ReplayError, ValueError)
