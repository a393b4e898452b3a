"""WAV reading, and the recogniser's chunks of 16-bit PCM."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from rules.errors import RefereeError
from voice.audio_signal import from_pcm16_bytes
from voice.translation import N_

TARGET_RATE = 16000
CHUNK_MS = 100  # audio a sound card hands over per callback in the live loop

_PCM = 0x0001
_IEEE_FLOAT = 0x0003
_EXTENSIBLE = 0xFFFE


class WavError(RefereeError):
    """A file that is not a WAV recording this reader decodes: names the file and the fault."""


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Read a PCM (8/16/24/32-bit) or float WAV file as mono float32 in [-1, 1] and its rate.

    Channels are averaged. WavError naming the file if it is not a WAV recording it decodes.
    """
    path = Path(path)
    data = path.read_bytes()
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise WavError(N_("{path}: not a WAV file (no RIFF/WAVE header)"), path=path)
    chunks = _chunks(data, path)
    if b"fmt " not in chunks:
        raise WavError(N_("{path}: corrupt WAV file (no complete 'fmt ' chunk)"), path=path)
    if b"data" not in chunks:
        raise WavError(N_("{path}: corrupt WAV file (no 'data' chunk)"), path=path)
    fmt = chunks[b"fmt "]
    if len(fmt) < 16:
        raise WavError(N_("{path}: corrupt WAV file ('fmt ' chunk is {size} bytes, need 16)"),
                       path=path, size=len(fmt))
    tag, channels, rate, _, block_align, bits = struct.unpack_from("<HHIIHH", fmt)
    if tag == _EXTENSIBLE and len(fmt) >= 26:
        tag = struct.unpack_from("<H", fmt, 24)[0]  # first two bytes of the sub-format GUID
    if channels < 1 or rate < 1 or bits % 8 or block_align != channels * bits // 8:
        raise WavError(N_("{path}: corrupt WAV file ({channels} channels, {rate} Hz, {bits} bits, "
                          "block align {block_align})"), path=path, channels=channels, rate=rate,
                       bits=bits, block_align=block_align)
    raw = chunks[b"data"]
    raw = raw[: len(raw) - len(raw) % block_align]
    samples = _decode(raw, tag, bits, path)
    return samples.reshape(-1, channels).mean(axis=1, dtype=np.float32), rate


def _chunks(data: bytes, path: Path) -> dict[bytes, bytes]:
    """Split a RIFF body into its chunks; a truncated final 'data' chunk keeps what is there."""
    chunks: dict[bytes, bytes] = {}
    pos = 12
    while pos + 8 <= len(data):
        chunk_id, size = struct.unpack_from("<4sI", data, pos)
        body = data[pos + 8 : pos + 8 + size]
        if len(body) < size and chunk_id != b"data":
            break
        chunks.setdefault(chunk_id, body)
        pos += 8 + size + (size & 1)
    return chunks


def _decode(raw: bytes, tag: int, bits: int, path: Path) -> np.ndarray:
    """Decode interleaved sample bytes to float32 in [-1, 1]."""
    if tag == _PCM and bits == 8:
        return (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    if tag == _PCM and bits == 16:
        return from_pcm16_bytes(raw)
    if tag == _PCM and bits == 24:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        value = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        return ((value ^ 0x800000) - 0x800000).astype(np.float32) / float(1 << 23)
    if tag == _PCM and bits == 32:
        return (np.frombuffer(raw, "<i4") / float(1 << 31)).astype(np.float32)
    if tag == _IEEE_FLOAT and bits in (32, 64):
        return np.frombuffer(raw, f"<f{bits // 8}").astype(np.float32)
    raise WavError(N_("{path}: unsupported WAV encoding (format tag {tag:#06x}, {bits} bits)"),
                   path=path, tag=tag, bits=bits)


def pcm_bytes(ms: int) -> int:
    """How many bytes `ms` milliseconds of 16 kHz 16-bit mono PCM take."""
    return TARGET_RATE * ms // 1000 * 2


def chunked(pcm16: bytes, chunk_ms: int) -> list[bytes]:
    """16 kHz 16-bit PCM cut into `chunk_ms` pieces, as a sound card would deliver it."""
    step = pcm_bytes(chunk_ms)
    return [pcm16[start : start + step] for start in range(0, len(pcm16), step)]
