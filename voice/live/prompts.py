"""The live loop's own prompts on the referee's headset: its codes, voiced from the bank."""

from __future__ import annotations

from enum import StrEnum

from phrases.render import Prompt, Utterance, render
from rules.command import Command, Kind

REPEAT_SECONDS = 20.0  # a lost device's alert is said again this often until it is back


class LoopCode(StrEnum):
    """What the loop tells the referee of its own health; each a key of the bank's [prompts]."""

    TAKEN = "taken"  # a command accepted that the PA does not voice back, its kind as variant
    NOT_RECORDED = "not_recorded"  # refused once another program's events were recorded first
    RECORD_LATE = "record_late"  # events taken and voiced wait to be recorded (record locked)
    RECORD_BACK = "record_back"  # … and are all recorded now
    RECORD_WRITTEN_BACK = "record_written_back"  # the record's file vanished and was written back
    MIC_LOST = "mic_lost"  # the microphone stopped delivering audio
    MIC_BACK = "mic_back"  # … and is heard again
    PA_LOST = "pa_lost"  # the PA's output failed or hung (said on the headset)
    HEADSET_LOST = "headset_lost"  # the headset's output failed or hung: a neutral word on the PA
    SAY_AGAIN = "say_again"  # audio went missing, or the PA drowned him, while he may have spoken
    SHOT_CLOCK_TONE = "shot_clock_tone"  # the PA's tone as the shot clock warns: no words


# The commands the confirmation («taken») names; any other is confirmed plainly.
CONFIRMED_BY_NAME = (
    Kind.POINT, Kind.POINT_OUT, Kind.POINT_OUT_ANCHOR, Kind.POINT_ENTREES,
    Kind.POINT_ENTREES_ANCHOR, Kind.MISS, Kind.FOUL, Kind.ENTREES, Kind.ENTREES_ANCHOR, Kind.OUT,
    Kind.A_CHEVAL, Kind.A_CHEVAL_ANCHOR, Kind.TOUCHENT, Kind.RESPOT, Kind.FAULT_SIX,
    Kind.BALL_OFF, Kind.BREAK, Kind.BREAK_END, Kind.STARTS,
)

# Every bank key the loop says: each code plain, and «taken» with each kind it names.
PROMPTS = frozenset(map(str, LoopCode)) | {f"{LoopCode.TAKEN}.{kind}" for kind in CONFIRMED_BY_NAME}


def prompt(code: LoopCode) -> Utterance:
    """The headset's prompt for `code`, in its plain form."""
    return render(Prompt(code))


def confirmation(command: Command) -> Utterance:
    """The headset's word that `command` was taken: its name, or a plain «εντάξει»."""
    variant = command.kind if command.kind in CONFIRMED_BY_NAME else None
    return render(Prompt(LoopCode.TAKEN, player=command.player, variant=variant))
