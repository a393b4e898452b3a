"""Download a vosk model archive (resuming an interrupted download), verify its SHA-256, unpack
it whole and check it, or keep nothing but the download to resume."""

from __future__ import annotations

import hashlib
import http.client
import re
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from pathlib import Path, PurePosixPath

from rules.errors import RefereeError
from voice.hearing.model import ModelError, ModelInfo, check_model
from voice.translation import N_, Foreign, reason

BLOCK = 1 << 20  # bytes read per step, and between progress reports
TIMEOUT = 30  # seconds without data before the download is given up


@dataclass(frozen=True)
class Known:
    """A model this project knows: where it is published, the archive's size there and, once
    verified, its SHA-256."""

    url: str
    sha256: str | None
    size: int | None = None  # bytes, as the publisher's list gives it (rounded)


# The SHA-256 of the Greek model is not pinned: it could not be downloaded and checked from
# the workspace this was written in. Pin it here once it has been (see models/README.md).
KNOWN = {
    "vosk-model-el-gr-0.7": Known(
        "https://alphacephei.com/vosk/models/vosk-model-el-gr-0.7.zip", sha256=None,
        size=1_100_000_000,  # "1.1G" in Alpha Cephei's list
    ),
}
# Memory vosk holds per byte of the model unpacked, once loaded: 1.99 measured on the Korean
# test model (`.venv/bin/python bench/model_memory.py`); models compress little, so the
# unpacked model is taken as the archive's size.
MEMORY_PER_BYTE = 2.0


class FetchError(RefereeError):
    """Downloading or unpacking failed; the message says why and what was kept."""


class NoRoom(FetchError):
    """The disk has too little room for the model: the message says how much it needs."""


@dataclass(frozen=True)
class Fetched:
    """A model fetched: what check_model found, and the SHA-256 of the archive it came in."""

    info: ModelInfo
    sha256: str
    sha256_file: Path  # beside the model, in `sha256sum` format


Progress = Callable[[int, int | None], None]  # (bytes so far, total or None)
LOOPBACK = ("127.0.0.1", "localhost", "::1")
HEX64 = re.compile(r"[0-9a-fA-F]{64}")  # a SHA-256 written out


def fetch(url: str, sha256: str | None, dest: Path, name: str, progress: Progress) -> Fetched:
    """Download `url` into `dest`/`name`, unpack it whole and check it; refused unless its
    SHA-256 is `sha256` (None: any, over HTTPS only). An interrupted download is kept beside,
    as `.NAME.zip.part`, and resumed by the next call."""
    target = dest / name
    if target.exists():
        raise FetchError(N_("{target} already exists; remove it to fetch it again"),
                         target=target)
    if sha256 is None and not _trusted(url):
        raise FetchError(N_("{url}: without a SHA-256 to check, only an https:// address is "
                            "trusted"), url=url)
    dest.mkdir(parents=True, exist_ok=True)
    part = dest / f".{name}.zip.part"
    digest = download(url, part, progress)
    if sha256 is not None and digest != sha256.lower():
        part.unlink()
        raise FetchError(N_("{url}: SHA-256 is {digest}, expected {expected}: the download is "
                            "corrupt or is not the model pinned; nothing was kept"), url=url,
                         digest=digest, expected=sha256.lower())
    try:
        with tempfile.TemporaryDirectory(dir=dest, prefix=f".{name}-") as work:
            root = unpack(part, Path(work) / "unpacked")
            try:
                check_model(root)
            except ModelError as error:
                raise FetchError(N_("{url} does not hold a usable model ({error}); nothing was "
                                    "kept"), url=url, error=error) from None
            root.rename(target)
    finally:
        part.unlink()
    sums = dest / f"{name}.sha256"
    sums.write_text(f"{digest}  {name}.zip\n", encoding="utf-8")
    return Fetched(check_model(target), digest, sums)


@dataclass(frozen=True)
class Needs:
    """What fetching and running a model takes, in bytes, and what this computer has."""

    download: int  # the archive
    disk: int  # the archive and the model unpacked from it, at once
    memory: int  # the model loaded by vosk
    free: int  # on the disk it is unpacked to
    available: int | None  # memory available now (None: not known on this system)


def needs(size: int, dest: Path) -> Needs:
    """What a model whose archive has `size` bytes needs, against what `dest`'s disk and this
    computer's memory have now."""
    folder = next(p for p in (dest.absolute(), *dest.absolute().parents) if p.exists())
    return Needs(size, 2 * size, round(MEMORY_PER_BYTE * size),
                 shutil.disk_usage(folder).free, available_memory())


def available_memory() -> int | None:
    """The memory available for a new program (Linux's MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def kept_sha256(dest: Path, name: str) -> str | None:
    """The SHA-256 an earlier fetch of `name` kept in `dest` (None: none, or unreadable)."""
    try:
        digest = (dest / f"{name}.sha256").read_text(encoding="utf-8").split()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        return None
    return digest.lower() if HEX64.fullmatch(digest) else None


def _trusted(url: str) -> bool:
    """HTTPS, or plain HTTP to this machine itself."""
    parts = urllib.parse.urlsplit(url)
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK)


def download(url: str, path: Path, progress: Progress) -> str:
    """Stream `url` into `path`, resuming after the bytes already there when the server allows
    (HTTP Range); the SHA-256 (hex) of the whole file. FetchError before anything is written
    when the disk lacks room for the archive and the model unpacked from it."""
    have = path.stat().st_size if path.exists() else 0
    try:
        request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            resumed = response.status == 206
            total = _total(response.headers, have if resumed else 0)
            _check_room(path.parent, total, have if resumed else 0)
            digest = _hash(path) if resumed else hashlib.sha256()
            done = have if resumed else 0
            with path.open("ab" if resumed else "wb") as out:
                while block := response.read(BLOCK):
                    out.write(block)
                    digest.update(block)
                    done += len(block)
                    progress(done, total)
            if total is not None and done < total:
                raise http.client.IncompleteRead(b"", total - done)
    except urllib.error.HTTPError as error:
        if error.code == 416 and have:  # the download had finished: nothing more to send
            return _hash(path).hexdigest()
        raise FetchError(N_("cannot download {url}: the server answered {code} {why}; check the "
                            "address"), url=url, code=error.code, why=Foreign(error.reason)) \
            from None
    except urllib.error.URLError as error:
        raise FetchError(N_("cannot download {url}: {why}; check the address and the network "
                            "connection"), url=url, why=Foreign(error.reason)) from None
    except (TimeoutError, ConnectionError, http.client.HTTPException) as error:
        kept = path.stat().st_size if path.exists() else 0
        raise FetchError(N_("the download of {url} broke off after {megabytes:.1f} MB ({error}); "
                            "run the same command again to resume it"), url=url,
                         megabytes=kept / 1e6, error=Foreign(repr(error))) from None
    except OSError as error:
        raise FetchError(N_("cannot save the download in {folder}: {reason}"), folder=path.parent,
                         reason=reason(error)) from None
    except ValueError as error:  # not a URL urllib can open
        raise FetchError(N_("cannot download {url!r}: {error}; give an http(s) address"),
                         url=url, error=Foreign(error)) from None
    return digest.hexdigest()


def _total(headers: Message, offset: int) -> int | None:
    """The whole archive's size from Content-Range or Content-Length (None: not said)."""
    whole = (headers.get("Content-Range") or "").rpartition("/")[2]
    if whole.isdigit():
        return int(whole)
    length = headers.get("Content-Length")
    return offset + int(length) if length and length.isdigit() else None


def _check_room(folder: Path, total: int | None, have: int) -> None:
    """FetchError unless `folder`'s disk holds the rest of the archive and the model unpacked
    from it (at least the archive's size again: models compress little)."""
    if total is None:
        return
    needed = (total - have) + total
    free = shutil.disk_usage(folder).free
    if needed > free:
        raise NoRoom(N_("the model needs {needed:.0f} MB in {folder} (the archive, {total:.0f} "
                        "MB, and about as much unpacked), only {free:.0f} MB are free"),
                     needed=needed / 1e6, folder=folder, total=total / 1e6, free=free / 1e6)


def _hash(path: Path) -> hashlib._Hash:
    """The SHA-256 of what `path` holds so far, to go on with."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(BLOCK):
            digest.update(block)
    return digest


def unpack(archive: Path, into: Path) -> Path:
    """Extract a zip archive into `into`, refusing any member that would land outside it.

    Returns the model's root: the archive's single top-level folder, or `into` itself.
    """
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            for member in members:
                _check_member(member)
            needed = sum(m.file_size for m in members)
            free = shutil.disk_usage(archive.parent).free
            if needed > free:
                raise NoRoom(N_("unpacking needs {needed:.0f} MB, only {free:.0f} MB are free in "
                                "{folder}; nothing was kept"), needed=needed / 1e6,
                             free=free / 1e6, folder=archive.parent)
            broken = zf.testzip()
            if broken is not None:
                raise FetchError(N_("the archive member {member!r} is damaged (CRC mismatch); "
                                    "nothing was kept, fetch it again"), member=broken)
            zf.extractall(into)
    except zipfile.BadZipFile as error:
        raise FetchError(N_("the download is not a zip archive ({error})"),
                         error=Foreign(error)) from None
    tops = {PurePosixPath(m.filename).parts[0] for m in members}
    if len(tops) == 1 and (into / next(iter(tops))).is_dir():
        return into / next(iter(tops))
    return into


def _check_member(member: zipfile.ZipInfo) -> None:
    """Refuse absolute paths, `..` parts, drive letters and symbolic links."""
    path = PurePosixPath(member.filename.replace("\\", "/"))
    is_link = (member.external_attr >> 16) & 0o170000 == 0o120000
    if path.is_absolute() or ".." in path.parts or ":" in member.filename or is_link:
        raise FetchError(N_("the archive member {member!r} would be written outside the model "
                            "folder; refusing the archive, nothing was kept"),
                         member=member.filename)
