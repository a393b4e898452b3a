"""`referee calibrate`: record the referee saying each phrase (or read such takes), run them
through the live pipeline, print how each was taken, and learn the referee's profile."""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rules.discipline import DISCIPLINES, discipline
from rules.vocabulary import Vocabulary
from voice.cli.arguments import (
    Subcommands,
    UsageError,
    add_command,
    add_phrase_table_argument,
    find_device,
    phrase_table,
    settings_from,
)
from voice.cli.listen import PLACEHOLDER_PLAYERS
from voice.cli.listening import start_listener
from voice.devices import DeviceOutput
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.profile import Profile, save_profile
from voice.settings import Settings
from voice.translation import KINDS, N_, Line, _, ngettext

if TYPE_CHECKING:  # vosk loads only when a model is used, not on every `referee` command
    from voice.hearing.calibration import Judged, Report, Take
    from voice.hearing.listener import Listener

DEFAULT_TAKES_DIR = Path("takes")
HEADINGS = (N_("phrase"), N_("take"), N_("heard"), N_("command"), N_("result"), N_("confidence"),
            N_("decode"))
PROMPTS = Path(__file__).with_name("calibrate.toml")  # what the headset says before a take


def register(sub: Subcommands) -> None:
    """Add `calibrate` to the command line."""
    parser = add_command(
        sub, "calibrate", _("measure how well the model hears this referee, and learn a profile")
    )
    parser.add_argument("--model", required=True, type=Path, help=_("the vosk model directory"))
    parser.add_argument("--from-wav", type=Path, metavar="DIR",
                        help=_("evaluate takes already recorded: DIR/<phrase>/<n>.wav"))
    parser.add_argument("--mic", help=_("record the takes from this input device "
                        "(default: devices.mic)"))
    parser.add_argument("--headset", help=_("prompt each phrase on this output device "
                        "(default: devices.headset)"))
    parser.add_argument("--save", type=Path, default=DEFAULT_TAKES_DIR, metavar="DIR",
                        help=_("where recorded takes go (default: {folder})")
                        .format(folder=DEFAULT_TAKES_DIR))
    parser.add_argument("--takes", type=int, default=3, choices=range(1, 11), metavar="N",
                        help=_("takes of each phrase to record (1-10, default: 3)"))
    parser.add_argument("--profile", type=Path, metavar="PATH",
                        help=_("write the referee's profile learned from the takes here"))
    parser.add_argument("--discipline", default="libre", choices=list(DISCIPLINES),
                        help=_("whose phrases (default: libre)"))
    parser.add_argument("--config", type=Path, metavar="PATH",
                        help=_("the hall's settings file: the threshold and endpoint to measure "
                        "against, and the devices"))
    add_phrase_table_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee calibrate`."""
    from voice.hearing import calibration  # loads vosk

    if args.from_wav is not None and (args.mic or args.headset):
        raise UsageError(N_("--from-wav evaluates takes already recorded: drop --mic and "
                            "--headset"))
    table = phrase_table(args.phrase_table)
    settings = settings_from(argparse.Namespace(config=args.config, profile=None),
                             mic=args.mic, headset=args.headset)[0]
    vocabulary = Vocabulary(PLACEHOLDER_PLAYERS, discipline(args.discipline))
    folder = args.from_wav or record(args, settings, vocabulary, table)
    takes = _read(folder, vocabulary)
    first = start_listener(args.model, vocabulary, table, settings, Profile(),
                           prog="referee calibrate")
    report = calibration.calibrate(_listeners(first, settings), takes, settings.endpoint_ms)
    sys.stdout.writelines(line + "\n" for line in table_lines(report.before))
    sys.stdout.writelines(line + "\n" for line in report_lines(report, settings))
    if args.profile is not None:
        save_profile(report.learned.profile, args.profile,
                     [f"written by `referee calibrate` from the takes in {folder}, "
                      f"model {args.model}, discipline {args.discipline}"])
        sys.stdout.write(_("profile written to {path}; use it with `referee run --profile "
                           "{path}`").format(path=args.profile) + "\n")
    else:
        sys.stdout.write(_("give --profile PATH to keep this profile") + "\n")
    return 0


def _listeners(first: Listener, settings: Settings) -> Callable[[int], Listener]:
    """Listeners like `first`, one per endpoint, each made when first asked for."""
    from voice.hearing.listener import Listener

    made = {settings.endpoint_ms: first}

    def at(endpoint_ms: int) -> Listener:
        if endpoint_ms not in made:
            made[endpoint_ms] = Listener(first.recogniser.model, first.vocabulary,
                                         table=first.table, threshold=first.threshold,
                                         endpoint_ms=endpoint_ms)
        return made[endpoint_ms]

    return at


def _read(folder: Path, vocabulary: Vocabulary) -> list[Take]:
    """The takes in `folder`, each folder a phrase of the discipline; UsageError if not."""
    from voice.hearing.audio import WavError
    from voice.hearing.calibration import read_takes

    try:
        takes = read_takes(folder)
    except OSError as error:
        raise UsageError(N_("cannot read the takes in {folder}: {reason}"), folder=folder,
                         reason=error.strerror) from None
    except WavError as error:
        raise UsageError(N_("{error}; give WAV recordings (sox converts others)"),
                         error=error) from None
    if not takes:
        raise UsageError(N_("{folder} holds no takes: one folder per phrase, named as the phrase, "
                            "holding 1.wav, 2.wav …"), folder=folder)
    for phrase in dict.fromkeys(t.phrase for t in takes):
        if vocabulary.parse(phrase) is None:
            raise UsageError(N_("{folder}: «{phrase}» is not a phrase of {rules}; name each folder "
                                "as the phrase said"),
                             folder=folder / phrase, phrase=phrase, rules=vocabulary.rules.name)
    return takes


def table_lines(judged: tuple[Judged, ...]) -> list[str]:
    """One line per take: the phrase, what was heard, the command, the outcome, confidence and
    decode time."""
    rows = [tuple(map(_, HEADINGS))]
    for j in judged:
        heard = " | ".join(h.text if h.text == h.phrase else f"{h.text} (= {h.phrase})"
                           for h in j.heard) or _("(nothing)")
        commands = ", ".join(_(KINDS[h.command.kind]) if h.command else "-"
                             for h in j.heard) or "-"
        rows.append((j.take.phrase, str(j.take.number), heard, commands, _(j.outcome),
                     f"{j.confidence:.0f}", f"{j.decode_seconds * 1000:.0f} ms"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def report_lines(report: Report, settings: Settings) -> list[str]:
    """The error rates, the pauses, the endpoint recommended and the profile learned."""
    from voice.hearing.calibration import Outcome, error_rate

    outcomes = [j.outcome for j in report.before]
    profile = report.learned.profile
    return [
        Line(N_("command error rate over {takes} takes: {rate:.1f} % ({wrong} wrong, {unclear} "
                "not understood) at endpoint {endpoint} ms, threshold {threshold:g}"),
             rate=100 * error_rate(report.before), takes=len(outcomes),
             wrong=outcomes.count(Outcome.WRONG), unclear=outcomes.count(Outcome.NOT_UNDERSTOOD),
             endpoint=settings.endpoint_ms, threshold=settings.threshold).shown(),
        Line(N_("longest pause inside a multi-word phrase: {pause} ms; recommended endpoint: "
                "{endpoint} ms"), pause=report.longest_pause_ms,
             endpoint=report.endpoint_ms).shown(),
        Line(N_("profile: endpoint {endpoint} ms, threshold {threshold:g}, {count} alias(es)"),
             endpoint=profile.endpoint_ms, threshold=profile.threshold,
             count=len(profile.aliases)).shown(),
        *("  " + Line(N_("alias «{heard}» → «{phrase}»"), heard=heard, phrase=phrase).shown()
          for heard, phrase in profile.aliases.items()),
        *("  " + Line(N_("refused alias «{heard}» → «{phrase}»: {reason}"), heard=r.heard,
                      phrase=r.phrase, reason=r.reason).shown()
          for r in report.learned.refused),
        Line(N_("held-out takes (each judged by a profile learned from the other takes): error "
                "rate before {before:.1f} %, after {after:.1f} %"),
             before=100 * error_rate(report.before),
             after=100 * error_rate(report.held_out)).shown()
        if report.held_out else
        _("one take per phrase: none held out to test the profile on (--takes 2 or more)"),
    ]


def record(args: argparse.Namespace, settings: Settings, vocabulary: Vocabulary,
           table: PhraseTable | None) -> Path:
    """Prompt each phrase on the headset and record the takes into `args.save`."""
    from voice.hearing.microphone import Microphone
    from voice.hearing.recording import RecordingError, record_takes
    from voice.speaking.synthesis import Synthesiser

    mic = Microphone(find_device(settings.mic, "mic", "input"))
    headset = DeviceOutput(find_device(settings.headset, "headset", "output"))
    voice = Synthesiser(voice=settings.voice, rate=settings.rate, driver=settings.driver)
    phrases = [s for s in vocabulary.sentences if table is None or table.spell(s)]
    prompt = tomllib.loads(PROMPTS.read_text(encoding="utf-8"))["prompt"]

    def say(phrase: str, number: int) -> None:
        sys.stderr.write(_("«{phrase}», take {number} of {takes}: say it after the prompt")
                         .format(phrase=phrase, number=number, takes=args.takes) + "\n")
        headset.play(*voice.render(prompt.format(phrase=phrase)))

    try:
        record_takes(mic, phrases, args.takes, args.save, say)
    except RecordingError as error:
        raise RecordingError(N_("{error}; the takes so far are in {folder}: record again"),
                             error=error, folder=args.save) from None
    folder: Path = args.save
    count = len(phrases) * args.takes
    sys.stderr.write(ngettext("{count} take saved in {folder}", "{count} takes saved in {folder}",
                              count).format(count=count, folder=folder) + "\n")
    return folder
