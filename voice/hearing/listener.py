"""Audio → commands: one recogniser on one match's phrases, ending utterances on our own
endpoint and optionally committing a complete partial early."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rules.command import Command, Kind
from rules.vocabulary import DEFAULT_THRESHOLD, Vocabulary
from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import CHUNK_MS, TARGET_RATE, chunked, pcm_bytes
from voice.hearing.endpoint import DEFAULT_ENDPOINT_MS, Gate
from voice.hearing.model import ModelError
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import LoadedModel, Recognised, Recogniser, Word, load_model
from voice.hearing.understanding import UNKNOWN, phrase, understand
from voice.translation import N_, Foreign, Line

if TYPE_CHECKING:
    from voice.hearing.canceller import EchoCanceller

DEFAULT_PREROLL_MS = 300  # audio before an utterance's speech that vosk decodes with it
EDGE_SECONDS = 0.1  # vosk puts a word's boundary this far from where it was said, or less
SYLLABLE_FRAMES = 10  # a word with this many 10 ms frames of voice over the echo is his ...
TRACE_FRAMES = 5  # ... and one with no more than this, no syllable of his: the echo's
SLOW_RTF = 0.8  # a decode slower than this fraction of real time cannot keep up with live speech
NOTHING = Recognised("", final=True)  # what the canceller let through of a phrase it lost


@dataclass(frozen=True)
class Heard:
    """One phrase the pipeline acted on: what was recognised and the command it means."""

    text: str  # as the recogniser wrote it
    phrase: str  # the Greek it stands for (the same text unless a phrase table is used)
    command: Command | None  # None: not understood («δεν κατάλαβα», unless lost)
    confidence: float  # 100 for an exact phrase, else Vocabulary.nearest's score
    early: bool  # committed from a partial result, before the recogniser's endpoint
    replaces: Command | None = None  # the early commit this final result contradicts or doubts
    seconds: float = 0.0  # the audio the utterance was decoded from, up to now
    rival: str | None = None  # a reading of it nearly as likely, meaning another command
    rival_uncancelled: bool = False  # the rival is how the microphone's uncancelled audio reads
    lost: bool = False  # heard only without the echo canceller: it left nothing of the phrase
    readings: tuple[str, ...] = ()  # the other readings nearly as likely, as recognised
    doubted: str | None = None  # what the canceller read, settled without it ("": nothing)

    @property
    def start_cut(self) -> bool:
        """Whether its rival has words of its own before its words: his phrase may have begun
        under the echo («πόντος έξω» read «έξω»), its rest still to come.

        >>> Heard("버스", "έξω", None, 100.0, early=False, rival="πόντος έξω").start_cut
        True
        >>> Heard("버스", "έξω", None, 100.0, early=False, rival="άστοχο").start_cut
        False
        """
        return self.rival is not None and leads(self.rival, self.phrase)


class Listener:
    """Feeds 16 kHz PCM to a recogniser restricted to `vocabulary` and turns results into commands.

    An utterance ends once `endpoint_ms` of non-speech audio follows speech (hearing.endpoint),
    well before vosk's own endpoint (which alone ends it with None): its final result is acted
    on at once. vosk decodes each utterance from `preroll_ms` before its speech starts (None:
    all the audio, the quiet between utterances too, which costs CPU and hears nothing).
    With `early` (off by default: it makes false commits), a partial result that
    Vocabulary.complete accepts is committed once it has stood unchanged for `settle_ms` of
    audio (at once with 0). The utterance's final result then only confirms it (and is not
    returned), or, when it says something else or has a rival reading, is returned with
    `replaces` set to the early command, to be undone first. `aliases` (a referee's profile)
    map heard text, normalised, to the phrase it stands for.

    With `uncancelled` set (an echo canceller's: the microphone's audio before it, over a span
    of seconds ending some seconds ago, where the canceller changed it), a command is heard a
    second time without the canceller: a reading there that lacks its words, or is another
    command without them or with words before them, is its rival (second_rival). With `louder`
    set too (whether the phrase in the last seconds was louder than the PA's echo), a phrase
    the canceller left nothing of, louder than the echo, is heard again there: read as words,
    it is returned `lost`. With `clear_of_echo` set too (whether the phrase in the last seconds
    was so much louder than the echo that the microphone's own audio is mostly his voice), the
    second hearing also settles the canceller's doubt: a rival reading, or a best reading that
    is no command, gives way when the best reading there confirms the command (_settled). With
    `voiced` set (how many frames of a word's span are voice over the echo), a word of the best
    reading there besides the command's with more than a trace of his voice makes it a rival
    and confirms nothing: the echo adds words, but not in his voice; so do its words in his
    voice meaning another command where it lacks the command's, and, with `echo_known` set too
    (whether the echo's gain is known, before which `voiced` counts nothing), the command's
    words holding no more than a trace of his voice when the phrase was not clear of the echo
    (the echo's); and while that gain is not known, nothing there tells his voice from the
    echo's: any command with no other rival is unsure (_echo_unknown).
    And when the phrase was clear of the echo, the words there in his voice, one after
    another, the others the echo's, settle the doubt when they make a command (_his_phrase),
    and such a rival unless a reading there nearly as likely holds the command's words, and a
    phrase the canceller left nothing of when a whole pre-roll of quiet came before it (_lost).
    An utterance begun with less quiet than that after one the referee is asked to say again
    (`asked`) is the rest of its phrase: not returned. A command begun with no quiet at all
    after utterances that came to nothing is heard again with them, the rest of a phrase whose
    start the canceller took: the rest alone settles nothing; and, with `clear_before` set
    (whether a phrase was CLEAR_DB louder than the echo over the seconds before it), words
    there before the command's make that reading its rival when the rest was not clear of the
    echo its start was under (_under_start): his start would have left but a trace there.
    """

    def __init__(
        self,
        model: LoadedModel,
        vocabulary: Vocabulary,
        *,
        table: PhraseTable | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        early: bool = False,
        settle_ms: int = 0,
        endpoint_ms: int | None = DEFAULT_ENDPOINT_MS,
        preroll_ms: int | None = DEFAULT_PREROLL_MS,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self.vocabulary = vocabulary
        self.table = table
        self.aliases = dict(aliases or {})
        self.threshold = threshold
        self.early = early
        self._settle = pcm_bytes(settle_ms)
        self._forms = {s: table.spell(s) if table else [s] for s in vocabulary.sentences}
        # ValueError when no phrase at all can be recognised.
        self._spellings = [f for forms in self._forms.values() for f in forms]
        self.recogniser = Recogniser(model, self._spellings)
        self.uncancelled: Callable[[float, float], bytes | None] | None = None
        self.louder: Callable[[float], bool] | None = None
        self.clear_of_echo: Callable[[float], bool] | None = None
        self.voiced: Callable[[float, float], int] | None = None
        self.echo_known: Callable[[], bool] | None = None  # whether `voiced` can count any
        self.clear_before: Callable[[float, float], bool] | None = None
        self._second: Recogniser | None = None  # hears the audio before the canceller ...
        self._again: tuple[bytes, Recognised] | None = None  # ... what it last heard, and how
        self._committed: Command | None = None  # early commit of the utterance in progress
        self._pending: Heard | None = None  # a complete partial, settling
        self._pending_for = 0  # bytes of audio fed since it appeared
        self._fed = 0  # bytes of the utterance in progress fed to the recogniser
        self._asked = False  # the referee is asked to say again the phrase last returned
        self._dropped = 0.0  # seconds of the utterances just ended that came to nothing
        self.gate = None if endpoint_ms is None else Gate(endpoint_ms, preroll_ms)

    def hear_again(self, canceller: EchoCanceller) -> None:
        """Hear phrases again without `canceller`: its audio as it came (`uncancelled`) and its
        measure of the echo (`louder`, `clear_of_echo`, `voiced`, `echo_known`,
        `clear_before`)."""
        self.uncancelled = canceller.uncancelled
        self.louder = canceller.louder
        self.clear_of_echo = canceller.level.clear_of_echo
        self.voiced = canceller.level.voiced
        self.echo_known = lambda: canceller.level.gain is not None
        self.clear_before = canceller.level.clear_of_echo_before

    @property
    def free_form(self) -> bool:
        """True when the model takes no runtime grammar, so commands are matched by similarity."""
        return self.recogniser.grammar is None

    @property
    def speaking(self) -> bool:
        """Whether an utterance is under way, speech found in it (by our endpointer: never
        without one)."""
        return self.gate is not None and self.gate.endpointer.speaking

    @property
    def endpoint_ms(self) -> int | None:
        """The non-speech that ends an utterance, as the endpointer counts it (whole 10 ms
        frames); None when vosk's own endpoint ends each one."""
        return None if self.gate is None else self.gate.endpointer.endpoint_ms

    def feed(self, pcm16: bytes) -> Heard | None:
        """Feed a chunk of audio; return what it made the pipeline act on, if anything.

        Chunks are to be shorter than `endpoint_ms`, as a sound card delivers them: the audio
        after an endpoint waits for the next chunk, so each feed ends one utterance at most.
        """
        if self.gate is None:
            return self._hear(pcm16)
        audio, ends = self.gate.feed(pcm16)
        if ends:
            return self._end(audio)
        return self._hear(audio) if audio else None

    def _hear(self, pcm16: bytes) -> Heard | None:
        wanted = self.early and self._committed is None  # a partial could be committed
        self._fed += len(pcm16)
        event = self.recogniser.feed(pcm16, partials=wanted)
        if event is not None and event.final:
            return self._final(event)
        if not wanted:
            return None
        if event is not None:
            phrase = self._phrase(event.text)
            command = self.vocabulary.complete(phrase)
            self._pending = None if command is None else Heard(
                event.text, phrase, command, 100.0, early=True, seconds=self._seconds()
            )
            self._pending_for = 0
        else:
            self._pending_for += len(pcm16)
        if self._pending is None or self._pending_for < self._settle:
            return None
        heard, self._pending = self._pending, None
        self._committed = heard.command
        return heard

    def finish(self) -> Heard | None:
        """End the utterance in progress (e.g. at the end of a recording) and act on its text."""
        return self._end(self.gate.finish() if self.gate else b"")

    def reset(self) -> None:
        """Drop the utterance in progress, e.g. while the assistant's own voice is on the PA."""
        self.recogniser.reset()
        self._committed = self._pending = None
        self._fed = 0
        self._asked = False
        self._dropped = 0.0
        if self.gate is not None:
            self.gate.drop()

    def phrases(self) -> dict[Kind, dict[str, bool]]:
        """Each command kind of the vocabulary → its phrases → whether the model can hear it."""
        missing = set(self.recogniser.missing_words())
        kinds: dict[Kind, dict[str, bool]] = {}
        for sentence, forms in self._forms.items():
            heard = any(not set(form.split()) & missing for form in forms)
            command = self.vocabulary.parse(sentence)
            assert command is not None  # each sentence of the vocabulary is a command
            kinds.setdefault(command.kind, {})[sentence] = heard
        return kinds

    def _end(self, pcm16: bytes) -> Heard | None:
        """Feed the last audio of the utterance, then end it, unless vosk's endpoint did."""
        self._fed += len(pcm16)
        event = self.recogniser.feed(pcm16, partials=False) if pcm16 else None
        return self._final(event if event and event.final else self.recogniser.finish())

    def asked(self) -> None:
        """Note that the referee is asked to say again the phrase last returned, not done with
        (Verdict.rest): what follows it with less than a whole pre-roll of quiet is the rest
        of that phrase, not acted on (the endpointer ends an utterance at a pause the canceller
        makes in his phrase)."""
        self._asked = True

    def _final(self, result: Recognised) -> Heard | None:
        """What the utterance just ended means (_read), unless it is the rest of a phrase the
        referee is asked to say again (`asked`)."""
        rest = self._asked and self._after_quiet() is False
        heard = self._read(result)
        self._asked = rest and heard is not None  # the rest of that rest too
        return None if self._asked and heard is not None and heard.replaces is None else heard

    def _read(self, result: Recognised) -> Heard | None:
        if self.gate is not None:
            self.gate.restart()
        committed, self._committed, self._pending = self._committed, None, None
        seconds, self._fed = self._seconds(), 0
        before = self._dropped if self.gate is not None and self.gate.lead_in == 0 else 0.0
        self._dropped = 0.0
        text = result.text
        command, confidence = self.understand(text)
        rival = self.rival(command, result.rivals)
        unheard = doubted = None
        if text and (command is None or rival is not None):  # the canceller in doubt
            settled = self._settled(result, command, seconds)
            if settled is not None:
                doubted = rival or self._phrase(text)
                text, rival = settled, None
                command, confidence = self.understand(text)
        elif command is not None:
            unheard = self._unheard(text, command, seconds, before)
            his = None if unheard is None or before else self._his_alone(result, seconds)
            if his is not None:  # his words there alone settle what the canceller cut
                doubted, text, unheard = self._phrase(text), his, None
                command, confidence = self.understand(text)
        if unheard is not None:
            rival = self._phrase(unheard) or "…"  # "…": nothing heard there
        if committed is not None and command == committed and rival is None:
            return None  # confirms what was committed early
        if not text and committed is None:
            lost = self._lost(seconds)
            self._dropped = before + seconds if lost is None else 0.0
            return lost
        return Heard(text, self._phrase(text), command, confidence, early=False,
                     replaces=committed, seconds=seconds, rival=rival,
                     rival_uncancelled=unheard is not None, readings=result.rivals,
                     doubted=doubted)

    def _unheard(self, text: str, command: Command, seconds: float,
                 before: float = 0.0) -> str | None:
        """How the microphone heard the utterance of `seconds` before the echo canceller (from
        `before` seconds earlier: utterances that came to nothing, its phrase's start), when
        none of its readings holds `text`'s words (the echo adds words, never takes his away),
        or the best holds them and a word besides with more than a trace of his voice (the
        canceller may have cut it), or words before them where the utterance was not clear of
        the echo over its start (_under_start), or holds them in the echo's voice alone ("":
        _echo_alone), or lacks them and its words in his voice make another command (the
        canceller changed his), or, unless the best ends with them, one is another command
        without them, or with words before them (the canceller cuts the start of a phrase said
        over the PA: «πόντος έξω» heard as «έξω»); and when none of these, "" while the echo's
        gain is not known (_echo_unknown)."""
        again = self._heard_uncancelled(seconds + before)
        if again is None:
            return None
        heard, began = again
        counted = self._voiced(heard, began)
        ours, his = known_words(text), his_words(counted)
        if holds(text, [heard.text]):
            if maybe_his_besides(counted, ours) or (
                    before and leads(heard.text, text) and self._under_start(seconds, before)):
                return heard.text
            if self._echo_alone([frames for word, frames in counted if word.text in ours],
                                seconds):
                return ""
        elif his and self._means_other(" ".join(word.text for word in his), command):
            return heard.text
        rival = second_rival(
            text, (heard.text, *heard.rivals), lambda reading: self._means_other(reading, command))
        return "" if rival is None and self._echo_unknown() else rival

    def _under_start(self, seconds: float, before: float) -> bool:
        """Whether the utterance of `seconds` just ended was not clear of the echo over the
        `before` seconds before it (`clear_before`): his phrase's start, at its level, would
        have left no more than a trace of his voice there."""
        clear = self.clear_before
        return clear is not None and not clear(seconds, before)

    def _echo_unknown(self) -> bool:
        """Whether the echo's gain is not known yet (`echo_known`): nothing tells his voice from
        the echo's then, nor the echo's level from his (a short first announcement measures no
        block of it)."""
        known = self.echo_known
        return known is not None and not known()

    def _echo_alone(self, frames: list[int], seconds: float) -> bool:
        """Whether the words of a command, each with its `frames` of voice over the echo, hold
        no more than a trace of his voice (TRACE_FRAMES), the echo's gain known and the
        utterance of `seconds` not CLEAR_DB louder than the echo: the echo's words, not his."""
        known = self.echo_known
        return (bool(frames) and max(frames) <= TRACE_FRAMES and known is not None and known()
                and not self._clear(seconds))

    def _settled(self, result: Recognised, command: Command | None,
                 seconds: float) -> str | None:
        """The reading of a phrase the canceller left in doubt (`result`'s text meaning
        `command`, or none, or a rival among its readings another) that the microphone without
        it settles, the phrase CLEAR_DB louder than the echo (`clear_of_echo`): the best reading
        there ends with the words of the text (a command) or of the first rival that is one, its
        other words no more than a trace of his voice (TRACE_FRAMES): the echo's; or else its
        words in his voice make a command (_his_phrase)."""
        reading, meant = result.text, command
        if meant is None:
            reading, meant = next(((rival, other) for rival in result.rivals
                                   if (other := self.understand(rival)[0]) is not None),
                                  ("", None))
        again = self._heard_uncancelled(seconds) if self._clear(seconds) else None
        if again is None:
            return None
        heard, began = again
        counted = self._voiced(heard, began)
        if meant is not None and confirms(
                heard.text, reading, lambda other: self._means_other(other, meant)
        ) and not maybe_his_besides(counted, known_words(reading)):
            return reading
        return self._his_phrase(heard, began, counted, result)

    def _clear(self, seconds: float) -> bool:
        """Whether the utterance of `seconds` just ended was CLEAR_DB louder than the echo."""
        clear = self.clear_of_echo
        return clear is not None and bool(seconds) and clear(seconds)

    def _voiced(self, heard: Recognised, began: float) -> list[tuple[Word, int]]:
        """The known words of `heard`, a second hearing of audio that began `began` seconds ago,
        each with its frames of voice over the echo (`voiced`) but for its edges (cores)."""
        voiced = self.voiced
        return [] if voiced is None else [
            (word, voiced(end - start, began - end)) for word, start, end in cores(heard.words)]

    def _his_phrase(self, heard: Recognised, began: float, counted: list[tuple[Word, int]],
                    through: Recognised) -> str | None:
        """The words of `heard` (a second hearing of audio that began `began` seconds ago,
        its words `counted` by _voiced) in his voice, when they come one after another and make
        a command that the words before them make no other with, its other words hold no more
        than a trace of voice over the echo (TRACE_FRAMES), and the words the canceller let
        through (`through`, its reading) lie among his: the others are the echo's."""
        his = his_words(counted)
        known = [word for word in heard.words if word.text != UNKNOWN]
        first = known.index(his[0]) if his else 0
        if not his or known[first : first + len(his)] != his or any(
                TRACE_FRAMES < frames < SYLLABLE_FRAMES for _, frames in counted):
            return None
        ends = began - self._waiting(), self.recogniser.fed_seconds  # where each hearing ends
        low, high = his[0].start - ends[0] - EDGE_SECONDS, his[-1].end - ends[0] + EDGE_SECONDS
        if any(word.text != UNKNOWN and not low <= word.start - ends[1] < word.end - ends[1]
               <= high for word in through.words):
            return None
        text = " ".join(word.text for word in his)
        meant = self.understand(text)[0]
        upto = " ".join(word.text for word in known[: first + len(his)])
        if meant is None or not confirms(upto, text, lambda other: self._means_other(other, meant)):
            return None  # his first word may be under the echo: «πόντος έξω» heard as «έξω»
        return text

    def _lost(self, seconds: float) -> Heard | None:
        """The utterance of `seconds` the canceller left nothing of, as the microphone heard it
        before the canceller, when it was louder than the PA's echo and reads as words there
        (a command or not: the echo's words may be among his, and it may be the end of a
        phrase the endpointer cut in two); settled by his words there (_his_phrase), when it
        was CLEAR_DB louder than the echo and a whole pre-roll of quiet came before it."""
        if self.louder is None or not seconds or not self.louder(seconds):
            return None
        again = self._heard_uncancelled(seconds)
        if again is None or not again[0].text:
            return None
        heard = again[0]
        his = self._his_alone(NOTHING, seconds) if self._after_quiet() else None
        if his is not None:
            command, confidence = self.understand(his)
            return Heard(his, self._phrase(his), command, confidence, early=False,
                         seconds=seconds, readings=heard.rivals, doubted="")
        command, confidence = self.understand(heard.text)
        return Heard(heard.text, self._phrase(heard.text), command, confidence, early=False,
                     seconds=seconds, lost=True, readings=heard.rivals)

    def _his_alone(self, through: Recognised, seconds: float) -> str | None:
        """His words alone (_his_phrase) in the second hearing of the utterance of `seconds`
        just ended, which the canceller read as `through`, when it was CLEAR_DB louder than the
        echo and no reading there nearly as likely holds the canceller's words: unsure itself,
        the second hearing overrules nothing."""
        again = self._heard_uncancelled(seconds) if self._clear(seconds) else None
        if again is None or (through.text and holds(through.text, again[0].rivals)):
            return None
        heard, began = again
        return self._his_phrase(heard, began, self._voiced(heard, began), through)

    def _after_quiet(self) -> bool | None:
        """Whether a whole pre-roll of quiet came before the utterance just ended (Gate.lead_in):
        it is no tail of the last one, which the endpointer ended at a pause within a phrase
        (None without a pre-roll: no gate of ours, or one that decodes all the audio)."""
        gate = self.gate
        if gate is None or gate.preroll is None:
            return None
        return gate.lead_in >= gate.preroll

    def _heard_uncancelled(self, seconds: float) -> tuple[Recognised, float] | None:
        """How the microphone's audio before the canceller reads, over the utterance of
        `seconds` just ended, and how many seconds ago that audio began; None where the
        canceller did not change it."""
        waiting = self._waiting()
        audio = None if self.uncancelled is None else self.uncancelled(seconds, waiting)
        if audio is None:
            return None
        if self._second is None:
            self._second = Recogniser(self.recogniser.model, self._spellings)
        if self._again is None or self._again[0] != audio:  # not heard again already
            self._again = audio, self._second.reading(audio)
        return self._again[1], waiting + len(audio) / pcm_bytes(1000)

    def _waiting(self) -> float:
        """The seconds of audio the endpointer holds, fed after the utterance's endpoint."""
        return 0.0 if self.gate is None else self.gate.waiting / pcm_bytes(1000)

    def rival(self, command: Command | None, readings: tuple[str, ...]) -> str | None:
        """The phrase of one of `readings` (a text's rivals) that means another command than
        `command`, the text's (None when it is not understood or no reading does)."""
        if command is None:
            return None
        return next((self._phrase(text) for text in readings
                     if self._means_other(text, command)), None)

    def _means_other(self, text: str, command: Command) -> bool:
        """Whether `text` is understood as a command other than `command`."""
        meant, _ = self.understand(text)
        return meant is not None and meant != command

    def _seconds(self) -> float:
        """How long the utterance in progress is, as fed to the recogniser so far."""
        return self._fed / pcm_bytes(1000)

    def understand(self, text: str) -> tuple[Command | None, float]:
        """The command a final result's text means (None below the threshold), and confidence."""
        return understand(text, self.vocabulary, self.threshold, self.table, self.aliases)

    def _phrase(self, text: str) -> str:
        return phrase(text, self.table, self.aliases)


def holds(text: str, readings: Iterable[str]) -> bool:
    """Whether one of `readings` has `text`'s words in order, unknown words aside.

    >>> holds("엄마", ["어제", "버스 엄마 [unk] 어제"])
    True
    >>> holds("할아버지", ["어제"]), holds("엄마 버스", ["버스 엄마"]), holds("엄마", [""])
    (False, False, False)
    """
    words = known_words(text)
    for reading in readings:
        rest = iter(reading.split())
        if all(word in rest for word in words):
            return True
    return False


def known_words(text: str) -> list[str]:
    """`text`'s words but the unknown ones.

    >>> known_words("[unk] 엄마 버스")
    ['엄마', '버스']
    """
    return [word for word in text.split() if word != UNKNOWN]


def second_rival(text: str, readings: Sequence[str],
                 another: Callable[[str], bool]) -> str | None:
    """The reading of a second hearing without the canceller (best first) that is `text`'s
    rival: the best when none holds `text`'s words (the echo adds words, never takes his
    away); none when the best confirms them; else the first that is `another` command and
    lacks them or has words before them.

    >>> another = lambda reading: reading in ("어제", "엄마 버스", "라디오")
    >>> second_rival("버스", ["버스 어제", "어제"], another)  # «διόρθωση» read «έξω» through it
    '어제'
    >>> second_rival("버스", ["엄마 버스"], another)  # «πόντος έξω» with its start cut
    '엄마 버스'
    >>> second_rival("할아버지", ["버스 라디오"], another)  # his words not heard there
    '버스 라디오'
    >>> second_rival("엄마", ["엄마 버스", "엄마"], another) is None  # the echo's word after his
    True
    >>> second_rival("할아버지", ["버스 할아버지", "어제"], another) is None  # the echo's before
    True
    """
    if not holds(text, readings):
        return readings[0]
    if confirms(readings[0], text, another):
        return None
    return next((reading for reading in readings if another(reading)
                 and (leads(reading, text) or not holds(text, [reading]))), None)


def confirms(reading: str, text: str, another: Callable[[str], bool]) -> bool:
    """Whether `reading` ends with `text`'s words, any words before them making no `another`
    command with them (unknown words aside): the echo added words before his, nothing else.

    >>> another = lambda reading: reading == "엄마 버스"
    >>> confirms("버스", "버스", another), confirms("어제 [unk] 버스", "버스", another)
    (True, True)
    >>> confirms("버스 어제", "버스", another), confirms("버스 엄마 버스", "버스", another)
    (False, False)
    """
    known, words = known_words(reading), known_words(text)
    if not words or known[-len(words) :] != words:
        return False
    return not any(another(" ".join(known[-count:]))
                   for count in range(len(words) + 1, len(known) + 1))


def his_words(counted: Iterable[tuple[Word, int]]) -> list[Word]:
    """The words of `counted` (each with its frames of voice over the echo) that hold a
    syllable of his voice (SYLLABLE_FRAMES), not the echo's alone.

    >>> his_words([(Word("엄마", 0.0, 0.5), 12), (Word("버스", 0.5, 0.9), 3)])
    [Word(text='엄마', start=0.0, end=0.5)]
    """
    return [word for word, frames in counted if frames >= SYLLABLE_FRAMES]


def maybe_his_besides(counted: Iterable[tuple[Word, int]], words: Sequence[str]) -> bool:
    """Whether a word of `counted` (each with its frames of voice over the echo) besides
    `words` holds more than a trace of his voice (TRACE_FRAMES): it may be his.

    >>> maybe_his_besides([(Word("라디오", 0.0, 0.5), 8), (Word("어제", 0.5, 0.9), 14)], ["어제"])
    True
    >>> maybe_his_besides([(Word("라디오", 0.0, 0.5), 5), (Word("어제", 0.5, 0.9), 14)], ["어제"])
    False
    """
    return any(word.text not in words and frames > TRACE_FRAMES for word, frames in counted)


def cores(words: Sequence[Word]) -> list[tuple[Word, float, float]]:
    """Each known word of `words` (a reading's) and where it was said, but for its EDGE_SECONDS
    next to another word, which vosk may have put on the wrong side.

    >>> reading = [Word("엄마", 0.0, 0.5), Word("[unk]", 0.5, 0.8), Word("버스", 0.8, 1.2),
    ...            Word("어제", 1.5, 2.0)]
    >>> [(word.text, round(start, 2), round(end, 2)) for word, start, end in cores(reading)]
    [('엄마', 0.0, 0.4), ('버스', 0.9, 1.2), ('어제', 1.5, 2.0)]
    """
    spans = []
    for place, word in enumerate(words):
        before = place > 0 and words[place - 1].end >= word.start - EDGE_SECONDS
        after = place + 1 < len(words) and words[place + 1].start <= word.end + EDGE_SECONDS
        start, end = word.start + EDGE_SECONDS * before, word.end - EDGE_SECONDS * after
        if word.text != UNKNOWN and end > start:
            spans.append((word, start, end))
    return spans


def leads(reading: str, text: str) -> bool:
    """Whether `reading` has words of its own before `text`'s, then `text`'s words in order
    (unknown words aside).

    >>> leads("엄마 버스", "버스"), leads("엄마 버스", "엄마"), leads("[unk] 버스", "버스")
    (True, False, False)
    """
    known, words = known_words(reading), known_words(text)
    if not words or words[0] not in known:
        return False
    first = known.index(words[0])
    return first > 0 and holds(text, [" ".join(known[first:])])


def load_listener(
    model: Path,
    vocabulary: Vocabulary,
    table: PhraseTable | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    early: bool = False,
    endpoint_ms: int = DEFAULT_ENDPOINT_MS,
    aliases: Mapping[str, str] | None = None,
) -> Listener:
    """Load the model at `model` and build the pipeline; ModelError if it cannot hear a phrase."""
    loaded = load_model(model)
    try:
        return Listener(loaded, vocabulary, table=table, threshold=threshold, early=early,
                        endpoint_ms=endpoint_ms, aliases=aliases)
    except ValueError as error:  # not one phrase of the grammar is in the model's vocabulary
        raise ModelError(N_("{model}: {error}"), model=model, error=Foreign(error)) from None


def hear_recording(
    listener: Listener, samples: np.ndarray, rate: int, chunk_ms: int = CHUNK_MS
) -> list[tuple[float, Heard]]:
    """Feed one recording through `listener` in `chunk_ms` chunks; (seconds into it, heard)."""
    listener.reset()
    heard = []
    fed = 0
    for chunk in chunked(to_pcm16_bytes(resample(samples, rate, TARGET_RATE)), chunk_ms):
        fed += len(chunk)
        found = listener.feed(chunk)
        if found is not None:
            heard.append((fed / 2 / TARGET_RATE, found))
    last = listener.finish()
    return [*heard, (fed / 2 / TARGET_RATE, last)] if last else heard


def describe(listener: Listener, model: Path) -> list[str]:
    """What the listener can hear and how fast: its mode, coverage and decoding speed."""
    mode = (Line(N_("free-form, commands matched by similarity (threshold {threshold:g})"),
                 threshold=listener.threshold)
            if listener.free_form
            else Line(N_("a runtime grammar of {count} phrases"),
                      count=len(listener.recogniser.grammar or ())))
    return [Line(N_("model {model}: {mode}"), model=model, mode=mode).shown(),
            *coverage_report(listener),
            *speed_report(listener.recogniser.time_decode(), listener.free_form)]


def coverage_report(listener: Listener) -> list[str]:
    """Lines saying which grammar words the model lacks and what that leaves of each command."""
    missing = listener.recogniser.missing_words()
    lines = [Line(N_("the model's vocabulary lacks {count} grammar word(s), so vosk cannot hear "
                     "them: {words}"), count=len(missing), words=", ".join(missing)).shown()
             ] if missing else []
    for kind, phrases in listener.phrases().items():
        heard = [f"«{phrase}»" for phrase, ok in phrases.items() if ok]
        if not heard:
            lines.append("  " + Line(N_("{kind}: UNREACHABLE, none of its phrases can be "
                                        "recognised"), kind=kind).shown())
        elif len(heard) < len(phrases):
            lines.append("  " + Line(N_("{kind}: still recognisable as {phrases}"), kind=kind,
                                     phrases=", ".join(heard)).shown())
    return lines


def speed_report(rtf: float, free_form: bool) -> list[str]:
    """A line giving the decoding speed, and a warning when it cannot keep up with speech."""
    mode = N_("free-form") if free_form else N_("grammar")
    lines = [Line(N_("{mode} decoding takes {rtf:.2f}× real time"), mode=mode, rtf=rtf).shown()]
    if rtf > SLOW_RTF:
        lines.append(Line(
            N_("WARNING: {mode} recognition cannot keep up with live speech on this machine "
               "(real-time factor {rtf:.2f} > {slow}): vosk decodes only the referee's phrases, "
               "yet answers will come late, the more so the longer the phrases and the closer "
               "together; use a faster machine or a smaller model"),
            mode=mode, rtf=rtf, slow=SLOW_RTF).shown())
    return lines
