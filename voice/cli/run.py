"""`referee run`: the hands-free loop — microphone → vosk → rules → the PA and the headset."""

from __future__ import annotations

import argparse
import sys
import threading
from contextlib import suppress

from phrases.bank import Channel
from rules.vocabulary import Vocabulary
from voice import devices
from voice.cli.arguments import (
    SETUP_ARGUMENTS,
    Subcommands,
    UsageError,
    add_command,
    add_db_argument,
    add_early_argument,
    add_phrase_table_argument,
    add_settings_arguments,
    add_setup_arguments,
    add_threshold_argument,
    find_device,
    match_number,
    phrase_table,
    settings_from,
    setup_from,
)
from voice.cli.kept_echo import EchoKeeper, recalled
from voice.cli.listening import start_listener
from voice.cli.pushing import add_push_arguments, pushing
from voice.cli.stopping import on_stop_signal
from voice.hearing.canceller import EchoCanceller, PlayedSound, TappedOutput
from voice.hearing.microphone import Microphone
from voice.live.catch_up import catch_up
from voice.live.echo import EchoGuard
from voice.live.loop import LiveLoop, log_to_stderr
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import OUTPUTS, Announcer, Output
from voice.translation import N_, _


def register(sub: Subcommands) -> None:
    """Add `run` to the command line."""
    run_parser = add_command(sub, "run", _("the live voice loop: microphone, PA and headset"))
    add_setup_arguments(run_parser, required=False)
    run_parser.add_argument(
        "--match", type=match_number,
        help=_("continue this recorded match (its set-up comes from the record) instead of a "
               "new one"),
    )
    run_parser.add_argument("--model", required=True, help=_("the vosk model directory"))
    run_parser.add_argument("--mic", help=_("input device id or name part (default: devices.mic)"))
    run_parser.add_argument("--pa", help=_("the hall's output device (default: devices.pa)"))
    run_parser.add_argument("--headset",
                            help=_("the referee's output device (default: devices.headset)"))
    add_threshold_argument(run_parser)
    add_settings_arguments(run_parser)
    add_db_argument(run_parser)
    add_phrase_table_argument(run_parser)
    add_early_argument(run_parser)
    add_push_arguments(run_parser, names=False)
    run_parser.add_argument(
        "--no-confirm", dest="confirm", action="store_false", default=None,
        help=_("do not name on the headset the commands the PA does not voice back "
        "(default: headset.confirmations)"),
    )
    run_parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee run`: devices first (fail at once without them), then the model, then listen."""
    settings, profile = settings_from(
        args, mic=args.mic, pa=args.pa, headset=args.headset, threshold=args.threshold,
        endpoint_ms=args.endpoint, confirmations=args.confirm,
    )
    setup = None if args.match is not None else setup_from(args, settings)
    table = phrase_table(args.phrase_table)
    given = [f"--{name}" for name in SETUP_ARGUMENTS if getattr(args, name) is not None]
    if setup is None and given:
        raise UsageError(N_("--match continues a recorded match with its own set-up: drop "
                            "{option}"), option=given[0])
    mic = find_device(settings.mic, "mic", "input")
    played = PlayedSound()  # what the PA plays: the echo canceller's reference
    pa = find_device(settings.pa, "pa", "output")
    sound_cards = {
        "pa": devices.DeviceOutput(pa, OUTPUTS[Channel.PA]),
        "headset": devices.DeviceOutput(find_device(settings.headset, "headset", "output"),
                                        OUTPUTS[Channel.HEADSET]),
    }
    outputs: dict[str, Output] = {
        "pa": TappedOutput(sound_cards["pa"], played), "headset": sound_cards["headset"],
    }
    stop = threading.Event()  # the loop ends between chunks and finishes its speech
    with (
        on_stop_signal(stop.set),
        Record.open(args.db, create=setup is not None) as record,
        pushing(args, args.db),
    ):
        record.check_writable()  # before listening: a phrase must be recordable
        rules = record.setup(args.match)[1] if setup is None else setup
        vocabulary = Vocabulary(rules.players, rules.rules, rules.spoken)
        from voice.speaking.synthesis import Synthesiser
        from voice.speaking.voicing import Voicing

        # The voice and the devices before the model's long load and the match: any of them
        # failing, it stops at once and no match is created.
        speech = Synthesiser(voice=settings.voice, rate=settings.rate, driver=settings.driver)
        for card in sound_cards.values():
            card.check()
        microphone = Microphone(mic)
        microphone.check()
        listener = start_listener(
            args.model, vocabulary, table, settings, profile, early=args.early, prog="referee run",
        )
        microphone.open()
        match_id = args.match if setup is None else record.create_match(rules)
        ledger = LiveLedger(record, match_id, log_to_stderr)
        voicing = Voicing(speech, settings.pause_ms, settings.chime, settings.loudness)
        announcer = Announcer(voicing, outputs)
        echo = EchoGuard(lambda: announcer.on_pa, vocabulary.parse, settings.echo_guard_ms,
                         lag_ms=listener.endpoint_ms or 0)
        canceller = EchoCanceller(played, captured=lambda: microphone.captured_at,
                                  known_gain=recalled(mic.name, pa.name, log_to_stderr))
        keeper = EchoKeeper(canceller.level, mic.name, pa.name, log_to_stderr)
        loop = LiveLoop(listener, ledger, announcer, confirm=settings.confirmations, echo=echo,
                        notice=settings.lost_notice, say_again=settings.say_again,
                        tone=settings.shot_clock_tone, give_way=settings.give_way,
                        canceller=canceller,
                        keep_echo=keeper.watch)
        sys.stderr.write(_("match {match} recorded in {path}; listening on {mic}").format(
            match=ledger.match_id, path=args.db, mic=mic.name) + "\n")
        with suppress(KeyboardInterrupt):  # Ctrl-C stops it too
            try:
                if setup is None:
                    catch_up(ledger, loop.announcer, loop.voiced, summarise=True)
                microphone.capture(loop.on_audio, loop.idle, stop, loop)
            finally:
                microphone.close()
                loop.close()
                keeper.close()
        sys.stderr.write(_("stopped") + "\n")
    return 0

