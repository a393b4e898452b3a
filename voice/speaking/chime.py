"""The chime before a non-routine announcement: a two-note bell tone, synthesised."""

from __future__ import annotations

import numpy as np

NOTES_HZ = (659.26, 523.25)  # E5 then C5: the «ding-dong» of a public address
NOTE_S = 0.45  # each note's length; they overlap by half
DECAY_S = 0.18  # the time a note takes to fall to 1/e
ATTACK_S = 0.005  # a soft start, so that no click is heard
AFTER_S = 0.25  # silence between the chime and the speech


def bell(rate: int) -> np.ndarray:
    """The chime at `rate` samples per second, float32, its peak at 0.5 before normalising."""
    note = np.arange(int(NOTE_S * rate)) / rate
    envelope = np.exp(-note / DECAY_S) * np.minimum(1.0, note / ATTACK_S)
    step = int(NOTE_S * rate / 2)
    out = np.zeros(step * (len(NOTES_HZ) - 1) + len(note) + int(AFTER_S * rate))
    for i, hz in enumerate(NOTES_HZ):
        # The fundamental with a quieter octave above it: a bell rather than a beep.
        tone = np.sin(2 * np.pi * hz * note) + 0.3 * np.sin(4 * np.pi * hz * note)
        out[i * step : i * step + len(note)] += tone * envelope
    peak = float(np.abs(out).max())
    return np.asarray(0.5 * out / peak, dtype=np.float32)
