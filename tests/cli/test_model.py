"""`referee model check|fetch`, fetching from a loopback HTTP server."""

from __future__ import annotations

import hashlib
import http.server
import io
import random
import shutil
import socket
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.vosk_model import fst_header

NAME = "vosk-model-test"
LAYOUT = {"am/final.mdl": b"junk", "conf/mfcc.conf": b"junk", "conf/model.conf": b"junk",
          "graph/HCLG.fst": fst_header(flags=0), "graph/words.txt": "<eps> 0\nπόντος 1\n".encode()}


def archive(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


GOOD = archive({f"{NAME}/{path}": data for path, data in LAYOUT.items()})
GOOD_SHA = hashlib.sha256(GOOD).hexdigest()


class Ranged(http.server.BaseHTTPRequestHandler):
    """Serves the files of `folder`, honouring `Range: bytes=N-`; the first answer breaks off
    after `cut_after` bytes when that is set. Each request's Range header is noted."""

    folder: Path
    cut_after: int | None = None
    ranges: list[str | None]

    def do_GET(self) -> None:
        path = self.folder / self.path.lstrip("/")
        self.ranges.append(self.headers.get("Range"))
        if not path.is_file():
            self.send_error(404, "File not found")
            return
        data = path.read_bytes()
        start = int(self.headers["Range"][6:-1]) if self.headers.get("Range") else 0
        if start >= len(data) > 0:
            self.send_error(416, "Range Not Satisfiable")
            return
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        body = data[start:]
        if type(self).cut_after is not None:
            body, type(self).cut_after = body[: type(self).cut_after], None
            self.close_connection = True
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, type[Ranged]]]:
    """A loopback HTTP server over a folder: (base URL, folder, its handler class)."""
    folder = tmp_path / "www"
    folder.mkdir()
    handler = type("Handler", (Ranged,), {"folder": folder, "ranges": []})
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}", folder, handler
        httpd.shutdown()


def serve(server: tuple[str, Path, type[Ranged]], name: str, data: bytes) -> str:
    base, folder, _ = server
    (folder / name).write_bytes(data)
    return f"{base}/{name}"


def fetch(referee, url: str, sha: str, dest: Path) -> tuple[int, str, str]:
    return referee("model", "fetch", "--name", NAME, "--url", url, "--sha256", sha,
                   "--dest", str(dest))


def test_a_verified_archive_is_unpacked_and_checked(referee, server, tmp_path: Path) -> None:
    dest = tmp_path / "models"
    code, out, err = fetch(referee, serve(server, "m.zip", GOOD), GOOD_SHA.upper(), dest)
    assert code == 0, err
    assert out == (f"{dest / NAME}: a usable vosk model; runtime grammars: no (static HCLG.fst: "
                   "free-form recognition); vocabulary: 2 words (from graph/words.txt)\n"
                   f"SHA-256 of the archive: {GOOD_SHA} (checked); kept in "
                   f"{dest / NAME}.sha256\n")
    assert f"[{'#' * 30}] 100 %  0.0 of 0.0 MB\n" in err
    assert sorted(p.name for p in dest.iterdir()) == [NAME, f"{NAME}.sha256"]  # nothing else
    assert (dest / NAME / "graph" / "words.txt").read_bytes() == LAYOUT["graph/words.txt"]


def test_an_archive_without_a_top_folder_is_unpacked_as_the_name(
    referee, server, tmp_path: Path
) -> None:
    flat = archive(LAYOUT)
    code, _, err = fetch(referee, serve(server, "m.zip", flat), hashlib.sha256(flat).hexdigest(),
                         tmp_path / "models")
    assert code == 0, err
    assert (tmp_path / "models" / NAME / "am" / "final.mdl").is_file()


def test_a_wrong_hash_is_refused_and_nothing_is_left(referee, server, tmp_path: Path) -> None:
    dest = tmp_path / "models"
    code, out, err = fetch(referee, serve(server, "m.zip", GOOD), "0" * 64, dest)
    assert code == 2 and out == ""
    assert f"SHA-256 is {GOOD_SHA}, expected {'0' * 64}" in err and "nothing was kept" in err
    assert list(dest.iterdir()) == []


@pytest.mark.parametrize("evil", ["../evil.txt", f"{NAME}/../../evil.txt", "/tmp/evil.txt"])
def test_an_archive_writing_outside_the_folder_is_refused(
    referee, server, tmp_path: Path, evil: str
) -> None:
    bad = archive({**{f"{NAME}/{p}": d for p, d in LAYOUT.items()}, evil: b"gotcha"})
    dest = tmp_path / "a" / "b" / "models"
    code, _, err = fetch(referee, serve(server, "m.zip", bad), hashlib.sha256(bad).hexdigest(),
                         dest)
    assert code == 2
    assert f"the archive member {evil!r} would be written outside the model folder" in err
    assert list(dest.iterdir()) == []
    assert not any(p.name == "evil.txt" for p in tmp_path.rglob("*"))


def test_an_archive_that_is_no_model_is_refused(referee, server, tmp_path: Path) -> None:
    bad = archive({f"{NAME}/README": b"hello"})
    dest = tmp_path / "models"
    code, _, err = fetch(referee, serve(server, "m.zip", bad), hashlib.sha256(bad).hexdigest(),
                         dest)
    assert code == 2
    assert "does not hold a usable model" in err and "missing or empty am/final.mdl" in err
    assert list(dest.iterdir()) == []


def test_a_download_that_is_no_zip_is_refused(referee, server, tmp_path: Path) -> None:
    page = b"<html>moved</html>"
    code, _, err = fetch(referee, serve(server, "m.zip", page), hashlib.sha256(page).hexdigest(),
                         tmp_path / "models")
    assert code == 2 and "the download is not a zip archive" in err
    assert list((tmp_path / "models").iterdir()) == []


def test_an_unreachable_url_is_a_clear_message(referee, tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on once this socket is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/m.zip"
    code, _, err = fetch(referee, url, GOOD_SHA, tmp_path / "models")
    assert code == 2
    assert err == (f"referee model: error: cannot download {url}: [Errno 111] Connection "
                   "refused; check the address and the network connection\n")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_missing_file_on_the_server_is_named(referee, server, tmp_path: Path) -> None:
    url = f"{server[0]}/none.zip"
    code, _, err = fetch(referee, url, GOOD_SHA, tmp_path / "models")
    assert code == 2 and f"cannot download {url}: the server answered 404 File not found" in err


def test_an_existing_model_is_not_overwritten(referee, server, tmp_path: Path) -> None:
    (tmp_path / NAME).mkdir()
    code, _, err = fetch(referee, serve(server, "m.zip", GOOD), GOOD_SHA, tmp_path)
    assert code == 2 and f"{tmp_path / NAME} already exists" in err
    assert list((tmp_path / NAME).iterdir()) == []


def test_without_a_hash_the_download_is_kept_with_its_sha256_printed(
    referee, server, tmp_path: Path
) -> None:
    dest = tmp_path / "models"
    code, out, err = referee("model", "fetch", "--name", NAME, "--url",
                             serve(server, "m.zip", GOOD), "--dest", dest)
    assert code == 0, err
    assert out.splitlines()[1] == (
        f"SHA-256 of the archive: {GOOD_SHA} (not checked against any: compare it with a "
        "colleague's or the publisher's, and pin it in voice/hearing/fetch.py); kept in "
        f"{dest / NAME}.sha256")
    assert (dest / f"{NAME}.sha256").read_text() == f"{GOOD_SHA}  {NAME}.zip\n"


def test_without_a_hash_only_https_is_trusted(referee, tmp_path: Path) -> None:
    code, _, err = referee("model", "fetch", "--name", NAME, "--url",
                           "http://example.com/m.zip", "--dest", tmp_path)
    assert code == 2 and ("http://example.com/m.zip: without a SHA-256 to check, only an "
                          "https:// address is trusted") in err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_download_resumes_where_it_broke_off(
    referee, server, tmp_path: Path
) -> None:
    big = archive({**{f"{NAME}/{p}": d for p, d in LAYOUT.items()},
                   f"{NAME}/am/extra.bin": random.Random(1).randbytes(300_000)})
    url = serve(server, "m.zip", big)
    server[2].cut_after = 100_000
    dest = tmp_path / "models"
    code, out, err = fetch(referee, url, hashlib.sha256(big).hexdigest(), dest)
    assert code == 2 and out == ""
    assert "broke off after 0.1 MB" in err and "run the same command again to resume it" in err
    assert (dest / f".{NAME}.zip.part").stat().st_size == 100_000
    code, out, err = fetch(referee, url, hashlib.sha256(big).hexdigest(), dest)
    assert code == 0, err
    assert server[2].ranges == [None, "bytes=100000-"]
    assert (dest / NAME / "am" / "extra.bin").stat().st_size == 300_000
    assert sorted(p.name for p in dest.iterdir()) == [NAME, f"{NAME}.sha256"]


def test_a_resumed_download_with_the_wrong_hash_leaves_nothing(
    referee, server, tmp_path: Path
) -> None:
    url = serve(server, "m.zip", GOOD)
    server[2].cut_after = 100
    dest = tmp_path / "models"
    assert fetch(referee, url, "1" * 64, dest).code == 2
    code, _, err = fetch(referee, url, "1" * 64, dest)
    assert code == 2 and f"SHA-256 is {GOOD_SHA}, expected {'1' * 64}" in err
    assert list(dest.iterdir()) == []


def test_too_little_disk_is_refused_before_downloading(
    referee, server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voice.hearing import fetch as fetching

    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(fetching.shutil, "disk_usage",
                        lambda path: usage._replace(free=2 * len(GOOD) - 1))
    dest = tmp_path / "models"
    code, _, err = fetch(referee, serve(server, "m.zip", GOOD), GOOD_SHA, dest)
    assert code == 2 and f"the model needs 0 MB in {dest} (the archive, 0 MB, and about as " \
        "much unpacked), only 0 MB are free; free some space, or fetch it elsewhere with " \
        "`referee model fetch --dest DIR`" in err
    assert list(dest.iterdir()) == []


def test_a_damaged_archive_is_refused(referee, server, tmp_path: Path) -> None:
    damaged = bytearray(GOOD)
    at = GOOD.index(b"<eps> 0")
    damaged[at] ^= 0xFF  # stored, not compressed: the CRC no longer matches
    sha = hashlib.sha256(damaged).hexdigest()
    code, _, err = fetch(referee, serve(server, "m.zip", bytes(damaged)), sha, tmp_path / "m")
    assert code == 2 and f"the archive member '{NAME}/graph/words.txt' is damaged" in err
    assert list((tmp_path / "m").iterdir()) == []


def test_fetch_arguments_are_checked(referee, tmp_path: Path) -> None:
    code, _, err = referee("model", "fetch", "--name", "x", "--dest", str(tmp_path))
    assert code == 2 and "--name x is not a model this project knows" in err
    code, _, err = referee("model", "fetch", "--sha256", "abc", "--dest", str(tmp_path))
    assert code == 2 and "--sha256 must be 64 hexadecimal digits, got 'abc'" in err
    code, _, err = fetch(referee, "models/m.zip", GOOD_SHA, tmp_path)
    assert code == 2 and "cannot download 'models/m.zip': unknown url type" in err


def test_check_describes_the_korean_model(referee, korean_model_dir: Path) -> None:
    code, out, _ = referee("model", "check", str(korean_model_dir))
    assert code == 0
    assert out.startswith(f"{korean_model_dir}: a usable vosk model; runtime grammars: yes")
    assert out.endswith("words (from graph/Gr.fst)\n")
    words = int(out.split("vocabulary: ")[1].split()[0].replace(",", ""))
    assert 500_000 < words < 510_000


def test_check_of_a_broken_model_is_exit_2(referee, tmp_path: Path) -> None:
    code, out, err = referee("model", "check", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith(f"referee model: error: {tmp_path} is not a usable vosk model: missing")


def test_a_known_model_s_size_disk_and_memory_are_said_before_its_download(
    referee, server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voice.hearing import fetch as fetching

    url = serve(server, "m.zip", GOOD)
    monkeypatch.setitem(fetching.KNOWN, NAME, fetching.Known(url, GOOD_SHA, size=1_500_000_000))
    monkeypatch.setattr(fetching, "available_memory", lambda: 2_000_000_000)
    dest = tmp_path / "models"
    code, out, err = referee("model", "fetch", "--name", NAME, "--dest", dest)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith(f"{NAME}: about 1.5 GB to download; it needs about 3.0 GB free in "
                            f"{dest} (the archive and the model unpacked; free now: ")
    assert first.endswith("and about 3.0 GB of memory once loaded (available now: 2.0 GB); this "
                          "computer has too little memory free to load it: close other "
                          "programs, or run the match on a computer with more")
    assert out.splitlines()[1].startswith(str(dest / NAME))  # then the model, fetched


def test_a_model_fetched_again_is_checked_against_the_sha256_kept_the_first_time(
    referee, server, tmp_path: Path
) -> None:
    dest = tmp_path / "models"
    args = ("model", "fetch", "--name", NAME, "--url", serve(server, "m.zip", GOOD),
            "--dest", dest)
    assert referee(*args).code == 0
    shutil.rmtree(dest / NAME)
    code, out, err = referee(*args)
    assert code == 0, err
    assert f"{GOOD_SHA} (checked against the one kept from the first fetch)" in out
    shutil.rmtree(dest / NAME)
    other = archive({f"{NAME}/{path}": data for path, data in LAYOUT.items()} | {
        f"{NAME}/README": b"another build"})
    code, _, err = referee(*args[:5], serve(server, "m.zip", other), *args[6:])
    assert code == 2 and f"expected {GOOD_SHA}" in err and not (dest / NAME).exists()
