"""Download a vosk model archive, verify its SHA-256 and unpack it whole, or leave nothing."""

from __future__ import annotations

import hashlib
import http.client
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from rules.errors import RefereeError
from voice.hearing.model import ModelError, ModelInfo, check_model

BLOCK = 1 << 20  # bytes read per step, and between progress reports
TIMEOUT = 30  # seconds without data before the download is given up


@dataclass(frozen=True)
class Known:
    """A model this project knows: where it is published and, once verified, its SHA-256."""

    url: str
    sha256: str | None


# The SHA-256 of the Greek model is not pinned: it could not be downloaded and checked from
# the workspace this was written in. Pin it here once it has been (see models/README.md).
KNOWN = {
    "vosk-model-el-gr-0.7": Known(
        "https://alphacephei.com/vosk/models/vosk-model-el-gr-0.7.zip", sha256=None
    ),
}


class FetchError(RefereeError):
    """Downloading or unpacking failed; nothing was left behind. The message says why."""


def fetch(
    url: str, sha256: str, dest: Path, name: str, progress: Callable[[int, int | None], None]
) -> ModelInfo:
    """Download `url` into `dest`/`name` if its SHA-256 is `sha256` and it holds a usable model.

    `progress(bytes so far, total or None)` is called as the download goes.
    """
    target = dest / name
    if target.exists():
        raise FetchError(f"{target} already exists; remove it to fetch it again")
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest, prefix=f".{name}-") as work:
        archive = Path(work) / "download.zip"
        digest = download(url, archive, progress)
        if digest != sha256.lower():
            raise FetchError(f"{url}: SHA-256 is {digest}, expected {sha256.lower()}: the "
                             "download is corrupt or is not the model pinned; nothing was kept")
        root = unpack(archive, Path(work) / "unpacked")
        archive.unlink()
        try:
            check_model(root)
        except ModelError as error:
            raise FetchError(
                f"{url} does not hold a usable model ({error}); nothing was kept"
            ) from None
        root.rename(target)
    return check_model(target)


def download(url: str, path: Path, progress: Callable[[int, int | None], None]) -> str:
    """Stream `url` into `path` and return the SHA-256 (hex) of what arrived."""
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response, path.open("wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            while block := response.read(BLOCK):
                out.write(block)
                digest.update(block)
                done += len(block)
                progress(done, total)
    except urllib.error.HTTPError as error:
        raise FetchError(f"cannot download {url}: the server answered {error.code} "
                         f"{error.reason}; check the address") from None
    except urllib.error.URLError as error:
        raise FetchError(f"cannot download {url}: {error.reason}; check the address and the "
                         "network connection") from None
    except (TimeoutError, ConnectionError, http.client.HTTPException) as error:
        raise FetchError(f"cannot download {url}: {error!r}; try again") from None
    except OSError as error:
        raise FetchError(f"cannot save the download in {path.parent}: {error}") from None
    except ValueError as error:  # not a URL urllib can open
        raise FetchError(f"cannot download {url!r}: {error}; give an http(s) address") from None
    return digest.hexdigest()


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
                raise FetchError(f"unpacking needs {needed / 1e6:.0f} MB, only {free / 1e6:.0f} "
                                 f"MB are free in {archive.parent.parent}")
            zf.extractall(into)
    except zipfile.BadZipFile as error:
        raise FetchError(f"the download is not a zip archive ({error})") from None
    tops = {PurePosixPath(m.filename).parts[0] for m in members}
    if len(tops) == 1 and (into / next(iter(tops))).is_dir():
        return into / next(iter(tops))
    return into


def _check_member(member: zipfile.ZipInfo) -> None:
    """Refuse absolute paths, `..` parts, drive letters and symbolic links."""
    path = PurePosixPath(member.filename.replace("\\", "/"))
    is_link = (member.external_attr >> 16) & 0o170000 == 0o120000
    if path.is_absolute() or ".." in path.parts or ":" in member.filename or is_link:
        raise FetchError(f"the archive member {member.filename!r} would be written outside the "
                         "model folder; refusing the archive, nothing was kept")
