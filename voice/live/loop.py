"""The live loop above the audio devices: heard phrases in, recorded commands, queued speech."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from phrases.bank import Channel
from phrases.render import Utterance, render
from rules.announcement import NEVER_WITHDRAWN, Announcement, Code
from rules.command import Command, Kind
from voice.live.catch_up import catch_up
from voice.live.echo import EchoGuard
from voice.live.give_way import GiveWay
from voice.live.microphone_news import MicrophoneNews
from voice.live.output_news import OutputNews
from voice.live.prompts import LoopCode, confirmation, prompt
from voice.live.pulse import Pulse
from voice.live.record_news import RecordNews
from voice.live.ticker import Ticker
from voice.live.verdict import Way, judge
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import Announcer, Speaker
from voice.translation import N_, Line

if TYPE_CHECKING:  # the loop only passes them on; importing them loads vosk
    from voice.hearing.canceller import EchoCanceller
    from voice.hearing.listener import Heard, Listener

BACKLOG_MAX = 3  # routine batches waiting on one output: more are said as the current state


def log_to_stderr(line: str) -> None:
    """The loop's log: one line on standard error."""
    sys.stderr.write(f"{line}\n")


def _silent_on_the_pa(command: Command, utterances: list[Utterance]) -> bool:
    """True when the hall hears nothing of `command`, a referee's command that changed the match."""
    return command.kind not in NEVER_WITHDRAWN and all(u.channel != Channel.PA for u in utterances)


class LiveLoop:
    """Everything above the audio devices: audio chunks in, recorded commands, queued speech.

    Runs on one thread and never waits for the record: the ledger's writer records on its own.
    Its other jobs have parts with names: the heartbeat (Pulse), the microphone's faults
    (MicrophoneNews), the outputs' (OutputNews), how recording goes (RecordNews) and the clock
    (Ticker); a fault of the record, the microphone or an output is told and logged, never
    fatal. What the loop tells of its own health, refusals and "not understood" go ahead of
    routine announcements, and a routine backlog is said as the current state.
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
        canceller: EchoCanceller | None = None,
        log: Callable[[str], None] = log_to_stderr,
        notice: bool = True,
        tone: bool = True,
        say_again: str | None = None,
        keep_echo: Callable[[], None] | None = None,
        give_way: bool = True,
    ) -> None:
        self.listener = listener
        self.ledger = ledger
        self.announcer = announcer
        self.confirm = confirm  # name on the headset each command the PA does not voice back
        self.echo = echo  # phrases that are the PA's own echo are not taken
        self.canceller = canceller  # takes the PA's echo out of the audio, before the listener
        if canceller is not None:  # a command it heard, or a phrase it lost, is heard again
            listener.hear_again(canceller)  # without the canceller
        self.tone = tone  # the PA's tone as the shot clock warns
        self.keep_echo = keep_echo  # keeps the echo the canceller learns for the next session
        self.log = log
        self.pulse = Pulse(ledger)
        self.microphone = MicrophoneNews(listener, self._tell, self.pulse, log, say_again)
        # The outputs are watched when they are devices (`notice`: a lost headset's word on the PA).
        self.outputs = OutputNews(announcer, self._tell, ledger, self.voiced, self.pulse, log,
                                  notice) if isinstance(announcer, Announcer) else None
        self.record_news = RecordNews(ledger, self._tell, log)
        self.ticker = Ticker(ledger, clock)
        # With `give_way`, an announcement the referee speaks over is cut short (GiveWay).
        self.give_way = GiveWay(listener, canceller, announcer, ledger, self.voiced, log) if (
            give_way and canceller is not None and isinstance(announcer, Announcer)) else None
        self._early_taken = False  # the early commit in progress was accepted by the rules
        self._said_on_pa = False  # a command of the phrase in progress was voiced on the PA

    @property
    def overflows(self) -> int:
        """Input overflows the microphone reported."""
        return self.microphone.overflows

    def on_audio(self, pcm16: bytes) -> Heard | None:
        """Feed one chunk of microphone audio; act on what it completes."""
        heard = self.listener.feed(self.canceller.clean(pcm16) if self.canceller else pcm16)
        if self.give_way is not None:
            self.give_way.hear(pcm16)
        if heard is not None:
            self.act(heard)
        if self.give_way is not None and not self.listener.speaking:
            self.give_way.over(self._said_on_pa)
            self._said_on_pa = False
        self.idle()
        return heard

    def act(self, heard: Heard) -> None:
        """Take what the listener heard: undo a contradicted early commit, then the command."""
        if heard.replaces is not None and self._early_taken:
            self._take(Command(Kind.UNDO))
        self._early_taken = False
        verdict = judge(heard, self.echo, self.canceller)
        if verdict.way is Way.ECHO and verdict.echoed is not None:
            self.log(Line(N_("not taken: «{phrase}» is the PA's echo of «{echo}»"),
                          phrase=heard.phrase, echo=verdict.echoed.text).shown())
        elif verdict.way is Way.RESIDUE:
            self.log(Line(N_("not taken: «{phrase}» was no louder than the PA's echo, and far "
                             "quieter than the referee's voice"), phrase=heard.phrase).shown())
        elif verdict.way is Way.DROWNED:
            self.log(Line(N_("not taken: «{phrase}» was no louder than the PA's echo"),
                          phrase=heard.phrase).shown())
            if heard.command is not None:  # maybe the referee's: he is asked to say it again
                self.microphone.ask_again()
        elif verdict.way is Way.UNSURE:
            self.log(Line(N_("not taken: «{phrase}» heard only without the echo canceller, "
                             "which left nothing of it; asking the referee to repeat")
                          if heard.lost else
                          N_("not taken: «{phrase}» through the echo canceller, «{rival}» "
                             "without it; asking the referee to repeat") if heard.rival_uncancelled
                          else N_("not taken: «{phrase}» may as well have been «{rival}»; "
                                  "asking the referee to repeat"), phrase=heard.phrase,
                          rival=heard.rival).shown())
            self.microphone.ask_again()
        elif verdict.way is Way.NOT_UNDERSTOOD:
            self.announcer.say([render(Announcement(Code.NOT_UNDERSTOOD))], alert=True)
        elif heard.command is not None:
            if heard.doubted is not None:
                self.log(Line(N_("taken: «{phrase}», confirmed without the echo canceller "
                                 "(through it also «{doubted}»)") if heard.doubted else
                              N_("taken: «{phrase}», in his voice without the echo canceller, "
                                 "which left nothing of it"), phrase=heard.phrase,
                              doubted=heard.doubted).shown())
            if self.canceller is not None:
                self.canceller.level.note_referee(heard.seconds)
            said = self._take(heard.command)
            self._early_taken = heard.early and said is not None
            self._said_on_pa = self._said_on_pa or (
                said is not None and any(u.channel == Channel.PA for u in said))
        if verdict.rest:
            self.listener.asked()

    def idle(self) -> None:
        """Between chunks: keep the heartbeat, watch the outputs, follow the record, tell the
        referee how recording goes, run the clock (the break of Article 5, the warm-up, the
        shot clock) and keep the echo learned."""
        self.pulse.beat()
        self.microphone.repeat()
        if self.outputs is not None:
            self.outputs.watch()
        self.record_news.follow(self._run_clock)
        self.record_news.tell()
        if self.keep_echo is not None:
            self.keep_echo()

    def close(self) -> None:
        """Let the announcer finish what is queued and the writer record it; what cannot be
        recorded is logged in full, never dropped unsaid."""
        self.announcer.close()
        self.pulse.stopped = True
        self.pulse.beat()
        if self.overflows:
            self.log(Line(N_("microphone: {count} input overflows in all (audio was dropped)"),
                          count=self.overflows).shown())
        for command in self.ledger.close():
            self.log(Line(N_("not recorded in match {match}: {command}"),
                          match=self.ledger.match_id,
                          command=json.dumps(command.to_dict(), ensure_ascii=False)).shown())

    def voiced(self, seq: int) -> None:
        """Note, from any thread, that event `seq` has been voiced."""
        self.ledger.mark_announced(seq)

    def microphone_lost(self, fault: Line) -> None:
        """Tell the referee that he is not heard, and forget the phrase cut short."""
        self.microphone.lost(fault)

    def microphone_back(self) -> None:
        """Tell the referee that he is heard again."""
        self.microphone.back()

    def audio_gap(self, seconds: float) -> None:
        """Ask the referee to say again what audio missing for `seconds` may have held."""
        self.microphone.gap(seconds)

    def overflowed(self, total: int) -> None:
        """Count the audio the sound card dropped; log it now and then."""
        self.microphone.overflowed(total)

    def _run_clock(self) -> None:
        """While a warm-up, a break or a shot is timed, feed the rules the seconds it has run."""
        tick = self.ticker.tick()
        if tick is not None:
            self._take(tick)

    def _tell(self, utterances: list[Utterance], done: Callable[[], None] | None = None) -> None:
        """Say what the loop's parts tell, ahead of routine announcements; then `done`."""
        self.announcer.say(utterances, done, alert=True)

    def _take(self, command: Command) -> list[Utterance] | None:
        """Apply and voice `command`, the writer recording it; what it says when the rules took
        it (None when they did not)."""
        utterances = self.ledger.command(command)
        seq = self.ledger.written
        if seq is not None and self.confirm and _silent_on_the_pa(command, utterances):
            utterances.append(confirmation(command))
        if self.tone and any(u.code is Code.SHOT_CLOCK_WARNING for u in utterances):
            utterances.append(prompt(LoopCode.SHOT_CLOCK_TONE))
        refused = any(u.code is Code.REFUSED for u in utterances)
        if not refused and self.outputs is not None and (
                self.outputs.announcer.backlog() > BACKLOG_MAX):
            self.outputs.announcer.drop_routine()  # their events stay unvoiced: caught up now
            catch_up(self.ledger, self.announcer, self.voiced, summarise=True)
            return None if seq is None else utterances
        done = None if seq is None else (lambda: self.voiced(seq))
        self.announcer.say(utterances, done=done, alert=refused)
        return None if seq is None else utterances
