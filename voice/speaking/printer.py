"""Announcements as text: the lines `simulate`, `resume` and `listen` print, and WAVs of the PA."""

from __future__ import annotations

import functools
import json
import tomllib
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from phrases.render import Utterance
from rules.state import Match
from rules.statistics import written
from rules.summary import summary
from voice.audio_signal import write_wav

if TYPE_CHECKING:  # pyttsx3 loads only when WAVs are asked for
    from voice.speaking.voicing import Voicing

WAV_RATE = 48000  # the WAVs are what a PA device at this rate plays


def display_line(utterance: Utterance) -> str:
    """A human-readable line for one utterance."""
    said = "" if utterance.text == utterance.display else f"  «{utterance.text}»"
    return f"[{utterance.channel.upper()}] {utterance.display}{said}"


def utterance_json(utterance: Utterance) -> str:
    """The JSONL form of one announcement (the stable `simulate --jsonl` contract)."""
    fields = ("code", "channel", "text", "display", "player", "points")
    return json.dumps({f: getattr(utterance, f) for f in fields}, ensure_ascii=False)


class Printer:
    """Voices utterances as text or JSONL lines, and the PA's ones as the PA plays them into
    WAV files if asked."""

    def __init__(self, out: TextIO, jsonl: bool = False, wav_dir: Path | None = None) -> None:
        self.out = out
        self.jsonl = jsonl
        self.wav_dir = wav_dir
        self.count = 0
        self.voicing: Voicing | None = None
        if wav_dir is not None:
            from voice.speaking.synthesis import Synthesiser
            from voice.speaking.voicing import Voicing

            wav_dir.mkdir(parents=True, exist_ok=True)
            self.voicing = Voicing(Synthesiser())

    def say(
        self, utterances: list[Utterance], done: Callable[[], None] | None = None,
        alert: bool = False,
    ) -> None:
        """Write (and render) each utterance and flush, alerts too, in order; then `done`."""
        for utterance in utterances:
            line = utterance_json(utterance) if self.jsonl else display_line(utterance)
            self.out.write(line + "\n")
            if self.voicing is not None and self.wav_dir is not None and utterance.channel == "pa":
                self.count += 1
                wav = self.wav_dir / f"{self.count:04d}-{utterance.code}.wav"
                write_wav(wav, self.voicing.audio(utterance, WAV_RATE), WAV_RATE)
        self.out.flush()
        if done is not None:
            done()

    def close(self) -> None:
        """Nothing is queued: every `say` has been written by the time it returns."""

    def state(self, match: Match) -> None:
        """The final state: one JSON object, or each player's statistics and the winner."""
        state = summary(match)
        if self.jsonl:
            self.out.write(json.dumps({"code": "state", **state}, ensure_ascii=False) + "\n")
            return
        words = summary_words()
        for p in state["players"]:
            self.out.write(words["player"].format_map({
                **p, "points": counted(words["points"], p["points"]),
                "innings": counted(words["innings"], p["innings"]),
                "average": written(p["points"], p["innings"])}) + "\n")
        self.out.write(words["winner"].format(winner=state["winner"] or "-") + "\n")


@functools.cache
def summary_words() -> dict[str, Any]:
    """The summary's Greek words, from `summary.toml`."""
    text = files("voice.speaking").joinpath("summary.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def counted(forms: dict[str, str], count: int) -> str:
    """`count` with the form of its word that agrees with it: `one` for 1, else `other`."""
    return forms["one" if count == 1 else "other"].format(count=count)
