"""The live loop above the audio devices: heard phrases in, recorded commands, queued speech."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from phrases.bank import Channel
from phrases.render import Utterance, render
from rules.announcement import CONFIRMED_BY_NAME, NEVER_WITHDRAWN, Announcement, Code
from rules.command import Command, Kind
from voice.live.echo import EchoGuard
from voice.live.stopwatch import Stopwatch
from voice.match_record.database import RecordError
from voice.match_record.ledger import LiveLedger
from voice.match_record.writer import LATE_SECONDS
from voice.speaking.announcer import Speaker

if TYPE_CHECKING:  # the loop only passes them on; importing them loads vosk
    from voice.hearing.listener import Heard, Listener

TICK_SECONDS = 1.0  # how often the clock is read while a warm-up, a break or a shot is timed
OVERFLOW_LOG_SECONDS = 10.0  # at most one line about overflows this often


class Liveness(StrEnum):
    """What the loop's heartbeat in the record says of it (the panel and the board show it)."""

    LISTENING = "listening"
    MIC_LOST = "mic_lost"
    HEADSET_LOST = "headset_lost"
    STOPPED = "stopped"


def log_to_stderr(line: str) -> None:
    """The loop's log: one line on standard error."""
    sys.stderr.write(f"{line}\n")


def _silent_on_the_pa(command: Command, utterances: list[Utterance]) -> bool:
    """True when the hall hears nothing of `command`, a referee's command that changed the match."""
    return command.kind not in NEVER_WITHDRAWN and all(u.channel != Channel.PA for u in utterances)


def _confirmation(command: Command) -> Utterance:
    """The headset's word that `command` was taken: its name, or a plain «εντάξει»."""
    variant = command.kind if command.kind in CONFIRMED_BY_NAME else None
    return render(Announcement(Code.TAKEN, player=command.player, variant=variant))


class LiveLoop:
    """Everything above the audio devices: audio chunks in, recorded commands, queued speech.

    Runs on one thread and never waits for the record: the ledger's writer records on its own.
    A fault of the record or the microphone is told on the headset and logged, never fatal.
    """

    def __init__(
        self,
        listener: Listener,
        ledger: LiveLedger,
        announcer: Speaker,
        clock: Callable[[], float] = time.time,
        *,
        confirm: bool = True,
        echo: EchoGuard | None = None,
        log: Callable[[str], None] = log_to_stderr,
        headset_lost: Callable[[], bool] = lambda: False,
    ) -> None:
        self.listener = listener
        self.ledger = ledger
        self.announcer = announcer
        self.clock = clock  # POSIX seconds: the break is timed from its recorded start
        self.confirm = confirm  # name on the headset each command the PA does not voice back
        self.echo = echo  # phrases that are the PA's own echo are not taken
        self.log = log
        self.headset_lost = headset_lost  # whether the headset's latest utterance failed
        self.overflows = 0  # input overflows the microphone reported
        self._late = False  # the referee has been told that recording is late
        self._rewrites = 0  # the record's write-backs told to the referee
        self._record_fault: str | None = None  # the loop's last fault reading the record
        self._early_taken = False  # the early commit in progress was accepted by the rules
        self._stopwatch = Stopwatch()  # the warm-up, break or shot being timed
        self._last_tick = 0.0
        self._overflow_logged = -OVERFLOW_LOG_SECONDS
        self._mic_lost = False
        self._stopped = False

    def on_audio(self, pcm16: bytes) -> Heard | None:
        """Feed one chunk of microphone audio; act on what it completes."""
        heard = self.listener.feed(pcm16)
        if heard is not None:
            self.act(heard)
        self.idle()
        return heard

    def act(self, heard: Heard) -> None:
        """Take what the listener heard: undo a contradicted early commit, then the command."""
        if heard.replaces is not None and self._early_taken:
            self._take(Command(Kind.UNDO))
        self._early_taken = False
        if heard.command is None:
            self.announcer.say([render(Announcement(Code.NOT_UNDERSTOOD))])
            return
        echoed = None if self.echo is None else self.echo.echoed(heard.command, time.monotonic())
        if echoed is not None:
            self.log(f"not taken: «{heard.phrase}» is the PA's echo of «{echoed.text}»")
            return
        accepted = self._take(heard.command)
        self._early_taken = heard.early and accepted

    def idle(self) -> None:
        """Between chunks: keep the heartbeat, follow the record, tell the referee how recording
        goes, and run the clock (the break of Article 5, the warm-up, the shot clock)."""
        self._beat()
        try:
            self.ledger.refresh()  # a control panel may have recorded events (a break) meanwhile
            self._run_clock()
            self._record_fine()
        except RecordError as error:
            self._record_failed(error)
        self._tell_the_record()

    def close(self) -> None:
        """Let the announcer finish what is queued and the writer record it; what cannot be
        recorded is logged in full, never dropped unsaid."""
        self.announcer.close()
        self._stopped = True
        self._beat()
        if self.overflows:
            self.log(f"microphone: {self.overflows} input overflows in all (audio was dropped)")
        for command in self.ledger.close():
            self.log(f"not recorded in match {self.ledger.match_id}: "
                     f"{json.dumps(command.to_dict(), ensure_ascii=False)}")

    def voiced(self, seq: int) -> None:
        """Note, from any thread, that event `seq` has been voiced."""
        self.ledger.mark_announced(seq)

    def microphone_lost(self, fault: str) -> None:
        """Tell the referee that he is not heard, and forget the phrase cut short."""
        self.log(f"microphone lost: {fault}; reopening it")
        self.listener.reset()
        self._mic_lost = True
        self._beat()
        self.announcer.say([render(Announcement(Code.MIC_LOST))])

    def microphone_back(self) -> None:
        """Tell the referee that he is heard again."""
        self.log("microphone back: listening")
        self._mic_lost = False
        self._beat()
        self.announcer.say([render(Announcement(Code.MIC_BACK))])

    def overflowed(self, total: int) -> None:
        """Count the audio the sound card dropped; log it now and then."""
        self.overflows = total
        now = time.monotonic()
        if now - self._overflow_logged >= OVERFLOW_LOG_SECONDS:
            self._overflow_logged = now
            self.log(f"microphone: {total} input overflows so far (audio was dropped)")

    def liveness(self) -> Liveness:
        """The loop's state as its heartbeat gives it; a lost microphone comes first."""
        if self._stopped:
            return Liveness.STOPPED
        if self._mic_lost:
            return Liveness.MIC_LOST
        return Liveness.HEADSET_LOST if self.headset_lost() else Liveness.LISTENING

    def _beat(self) -> None:
        """Hand the writer the heartbeat's state; it writes it on change and every few seconds."""
        self.ledger.beat(self.liveness())

    def _tell_the_record(self) -> None:
        """On the headset: an event the rules refused once another program's were recorded
        first, recording late (once, and once more when it caught up), the file written back."""
        writer = self.ledger.writer
        while writer.refused:
            writer.refused.popleft()
            self.announcer.say([render(Announcement(Code.NOT_RECORDED))])
        late = writer.late() > LATE_SECONDS
        if late != self._late and (late or writer.idle()):
            self._late = late
            code = Code.RECORD_LATE if late else Code.RECORD_BACK
            self.announcer.say([render(Announcement(code))])
        if writer.rewrites != self._rewrites:
            self._rewrites = writer.rewrites
            self.announcer.say([render(Announcement(Code.RECORD_WRITTEN_BACK))])

    def _run_clock(self) -> None:
        """While a warm-up, a break or a shot is timed, feed the rules the seconds it has run."""
        now = self.clock()
        if self._stopwatch.follow(self.ledger.match, now, self.ledger.break_started):
            self._last_tick = now - TICK_SECONDS  # a new one: its first tick at once
        tick = self._stopwatch.tick(now)
        if tick is not None and now - self._last_tick >= TICK_SECONDS:
            self._last_tick = now
            self._take(tick)

    def _take(self, command: Command) -> bool:
        """Apply and voice `command`, the writer recording it; True when the rules took it."""
        utterances = self.ledger.command(command)
        seq = self.ledger.written
        if seq is not None and self.confirm and _silent_on_the_pa(command, utterances):
            utterances.append(_confirmation(command))
        self._say(utterances, seq)
        return seq is not None

    def _record_failed(self, error: RecordError) -> None:
        if str(error) != self._record_fault:
            self.log(f"cannot read the match record: {error}")
        self._record_fault = str(error)

    def _record_fine(self) -> None:
        if self._record_fault is not None:
            self.log("the match record can be read again")
        self._record_fault = None

    def _say(self, utterances: list[Utterance], seq: int | None) -> None:
        done = None if seq is None else (lambda: self.voiced(seq))
        self.announcer.say(utterances, done=done)
