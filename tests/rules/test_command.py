"""Commands to and from the record's JSON form."""

import pytest

from rules.command import Command, CommandError, Kind
from rules.errors import RefereeError


def test_round_trip_of_every_field():
    command = Command(Kind.BALL_OFF, balls=("red", "white"), covered=(("red", "yellow"),))
    assert Command.from_dict(command.to_dict()) == command
    framed = Command(Kind.ENTREES, frames=(4, 5))
    assert Command.from_dict(framed.to_dict()) == framed
    shot = Command(Kind.TICK, seconds=20.5, shot=3)
    assert shot.to_dict() == {"kind": "tick", "seconds": 20.5, "shot": 3}
    assert Command.from_dict(shot.to_dict()) == shot
    assert Command(Kind.POINT).to_dict() == {"kind": "point"}


def test_a_command_of_its_kind_alone_is_read_as_one_shared_object():
    first, second = (Command.from_dict({"kind": "miss"}) for _ in range(2))
    assert first is second and first == Command(Kind.MISS)
    framed = Command.from_dict({"kind": "entrees", "frames": [4]})
    assert framed == Command(Kind.ENTREES, frames=(4,)) and framed is not Command.from_dict(
        {"kind": "entrees"}
    )


@pytest.mark.parametrize(
    "data,message",
    [
        ([], "must be an object"),
        ({"kind": "jump"}, "unknown command kind"),
        ({"kind": "point", "extra": 1}, "unknown command fields"),
        ({"kind": "ball_off", "balls": 5}, "'balls' must be a list"),
        ({"kind": "ball_off", "balls": ["green"]}, "unknown ball"),
        ({"kind": "ball_off", "balls": ["red"], "covered": [["red"]]}, "list of pairs"),
        ({"kind": "entrees", "frames": 5}, "'frames' must be a list"),
        ({"kind": "entrees", "frames": [10]}, "'frames' must be one or two numbers"),
        ({"kind": "tick", "seconds": -1}, "non-negative"),
        ({"kind": "starts", "player": 3}, "'player' must be a string"),
        ({"kind": "tick", "seconds": 1, "shot": "2"}, "'shot' must be a whole number"),
    ],
)
def test_malformed_commands_are_command_errors_naming_the_field(data, message):
    with pytest.raises(CommandError, match=message):
        Command.from_dict(data)


def test_command_errors_are_the_projects_errors_and_still_value_errors():
    assert issubclass(CommandError, RefereeError) and issubclass(CommandError, ValueError)
