"""How recording goes, as the live loop tells it: on the headset, and in the log."""

from __future__ import annotations

from collections.abc import Callable

from phrases.render import Utterance
from voice.live.prompts import LoopCode, prompt
from voice.match_record.database import RecordError
from voice.match_record.ledger import LiveLedger
from voice.match_record.writer import LATE_SECONDS
from voice.translation import N_, Line, _


class RecordNews:
    """Follows the record (what other programs recorded) and tells the referee how recording
    goes: refused events, late writing and its catching up, a file written back."""

    def __init__(
        self, ledger: LiveLedger, say: Callable[[list[Utterance]], None],
        log: Callable[[str], None],
    ) -> None:
        self.ledger = ledger
        self.say = say  # on the headset
        self.log = log
        self._late = False  # the referee has been told that recording is late
        self._rewrites = 0  # the record's write-backs told to the referee
        self._fault: str | None = None  # the last fault reading the record

    def follow(self, then: Callable[[], None]) -> None:
        """Read what a control panel may have recorded meanwhile (a break), then run `then` (the
        clock, which reads the record too); a fault reading the record is logged once, and its
        end too."""
        try:
            self.ledger.refresh()
            then()
        except RecordError as error:
            if str(error) != self._fault:
                self.log(Line(N_("cannot read the match record: {error}"), error=error).shown())
            self._fault = str(error)
            return
        if self._fault is not None:
            self.log(_("the match record can be read again"))
        self._fault = None

    def tell(self) -> None:
        """On the headset: an event the rules refused once another program's were recorded
        first, recording late (once, and once more when it caught up), the file written back."""
        writer = self.ledger.writer
        while writer.refused:
            writer.refused.popleft()
            self.say([prompt(LoopCode.NOT_RECORDED)])
        late = writer.late() > LATE_SECONDS
        if late != self._late and (late or writer.idle()):
            self._late = late
            self.say([prompt(LoopCode.RECORD_LATE if late else LoopCode.RECORD_BACK)])
        if writer.rewrites != self._rewrites:
            self._rewrites = writer.rewrites
            self.say([prompt(LoopCode.RECORD_WRITTEN_BACK)])
