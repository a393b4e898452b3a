"""The PA gives way to the referee: an announcement he speaks over is cut short, so that his
phrase is heard without its echo, and what it said is said again after him unless a command
he said was taken and announced on the PA (that announcement says what holds now)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from phrases.bank import Channel
from voice.hearing.audio import pcm_bytes
from voice.live.catch_up import catch_up
from voice.live.output_news import Moved
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Announcer
from voice.translation import N_, Line

if TYPE_CHECKING:  # the loop only passes them on; importing them loads vosk
    from voice.hearing.canceller import EchoCanceller
    from voice.hearing.listener import Listener


class GiveWay:
    """Cuts short the routine announcement playing on the PA once the referee speaks over it
    (an utterance under way, his voice over the echo: EchoCanceller.voice_over), dropping what
    waits there; once his phrase is over, the current state is said unless a command of it was
    announced there."""

    def __init__(self, listener: Listener, canceller: EchoCanceller, announcer: Announcer,
                 ledger: Ledger, voiced: Callable[[int], None],
                 log: Callable[[str], None]) -> None:
        self.listener = listener
        self.canceller = canceller
        self.announcer = announcer
        self.ledger = ledger
        self.voiced = voiced  # notes an event voiced, as the loop does
        self.log = log
        self._unsaid: list[int] | None = None  # the events unannounced when the PA gave way

    def hear(self, pcm16: bytes) -> None:
        """After a chunk of microphone audio: cut the PA short if he speaks over it there."""
        if (self._unsaid is None
                and speaks_over(self.listener, self.canceller, len(pcm16) / pcm_bytes(1000))
                and self.announcer.give_way(Channel.PA)):
            self._unsaid = [seq for seq, _ in self.ledger.unannounced()]
            self.log(Line(N_("the PA: announcement cut short, the referee speaking over it")
                          ).shown())

    def over(self, taken: bool) -> None:
        """Once his phrase is over (`taken`: a command of it was taken and announced on the PA),
        what the PA was cut short in is done with: said by that announcement, or now as the
        state."""
        unsaid, self._unsaid = self._unsaid, None
        if unsaid is None or self.listener.speaking:
            self._unsaid = unsaid
            return
        if taken:
            for seq in unsaid:
                self.voiced(seq)
            return
        self.log(Line(N_("the PA: the current state said again after the referee's phrase")
                      ).shown())
        catch_up(self.ledger, Moved(self.announcer, Channel.PA), self.voiced, summarise=True,
                 stale=True)


def speaks_over(listener: Listener, canceller: EchoCanceller, seconds: float) -> bool:
    """Whether the referee speaks over the PA in the last `seconds` of audio: an utterance is
    under way and his voice is over the echo there (EchoCanceller.voice_over)."""
    return listener.speaking and canceller.voice_over(seconds)
