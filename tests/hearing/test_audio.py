"""WAV reading and PCM conversion on synthesised signals."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from voice.audio_signal import to_pcm16_bytes
from voice.hearing.audio import WavError, chunked, read_wav


def sine(freq: float, rate: int, seconds: float = 2.0, amplitude: float = 0.5) -> np.ndarray:
    return amplitude * np.sin(2 * np.pi * freq * np.arange(int(rate * seconds)) / rate)


def peak_frequency(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[np.argmax(spectrum)])


def write_pcm(path: Path, frames: np.ndarray, rate: int, width: int) -> None:
    """Write integer frames (n, channels) of `width` bytes with the standard library's wave."""
    ints = frames.astype("<i8") + (128 if width == 1 else 0)  # 8-bit WAV is unsigned
    with wave.open(str(path), "wb") as w:
        w.setnchannels(frames.shape[1])
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(ints.view(np.uint8).reshape(-1, 8)[:, :width].tobytes())


def sox_tone(path: Path, *options: str) -> Path:
    """Write half a second of a 440 Hz tone with sox, in the format given by `options`."""
    subprocess.run(["sox", "-n", *options, str(path), "synth", "0.5", "sine", "440"], check=True)
    return path


@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_read_wav_downmixes_integer_pcm(tmp_path: Path, width: int) -> None:
    left, right = sine(440.0, 22050, 0.2, 0.6), sine(440.0, 22050, 0.2, 0.2)
    full = 2 ** (8 * width - 1)
    path = tmp_path / "stereo.wav"
    write_pcm(path, np.round(np.stack([left, right], axis=1) * full), 22050, width)
    samples, rate = read_wav(path)
    assert rate == 22050
    assert samples.dtype == np.float32
    np.testing.assert_allclose(samples, (left + right) / 2, atol=2 / full + 1e-6)


@pytest.mark.parametrize("sox_args", [["-e", "floating-point", "-b", "32"], ["-b", "24"]])
def test_read_wav_float_and_extensible_from_sox(tmp_path: Path, sox_args: list[str]) -> None:
    path = sox_tone(tmp_path / "sox.wav", "-r", "48000", "-c", "3", *sox_args)
    samples, rate = read_wav(path)
    assert rate == 48000
    assert len(samples) == 24000
    assert peak_frequency(samples, rate) == pytest.approx(440.0, abs=2.0)
    assert 0.9 < np.abs(samples).max() <= 1.0


def test_read_wav_keeps_a_truncated_data_chunk(tmp_path: Path) -> None:
    path = tmp_path / "cut.wav"
    write_pcm(path, np.arange(1000).reshape(-1, 1), 16000, 2)
    path.write_bytes(path.read_bytes()[:-101])  # cut mid-sample, as an interrupted recording
    samples, _ = read_wav(path)
    assert len(samples) == 949
    assert samples[-1] == pytest.approx(948 / 32768)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a WAV file"),
        (b"ID3\x03\x00" + bytes(100), "not a WAV file"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00", "corrupt WAV file"),
        (b"RIFF\x04\x00\x00\x00WAVE", "corrupt WAV file"),
    ],
)
def test_read_wav_names_the_bad_file(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    with pytest.raises(WavError, match=message) as error:
        read_wav(path)
    assert str(path) in str(error.value)


def test_read_wav_rejects_an_unsupported_encoding(tmp_path: Path) -> None:
    path = sox_tone(tmp_path / "alaw.wav", "-r", "8000", "-e", "a-law")
    with pytest.raises(WavError, match=r"unsupported WAV encoding \(format tag 0x0006"):
        read_wav(path)


def test_to_pcm16_bytes_scales_and_clips() -> None:
    pcm = np.frombuffer(to_pcm16_bytes(np.array([0.0, 0.5, -0.5, 1.5, -1.5])), "<i2")
    np.testing.assert_array_equal(pcm, [0, 16384, -16384, 32767, -32768])


def test_to_pcm16_bytes_passes_int16_through_and_rejects_other_ints() -> None:
    ints = np.array([1, -2, 300], dtype=np.int16)
    assert to_pcm16_bytes(ints) == ints.astype("<i2").tobytes()
    with pytest.raises(ValueError, match="int32"):
        to_pcm16_bytes(np.array([1, 2], dtype=np.int32))


def test_chunked_cuts_pcm_as_a_sound_card_delivers_it() -> None:
    pcm = bytes(range(256)) * 30  # 7680 bytes = 3840 samples = 240 ms at 16 kHz
    pieces = chunked(pcm, 100)
    assert [len(p) for p in pieces] == [3200, 3200, 1280]
    assert b"".join(pieces) == pcm
