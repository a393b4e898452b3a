"""A throwaway PostgreSQL cluster for the hall's tests: `initdb` into a temporary directory,
started on a private unix socket (no TCP), run as an unprivileged user when we are root, and
always stopped; every step has a time limit."""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

STEP_SECONDS = 60  # initdb, start or stop: longer is a hang
PORT = 5432  # only names the socket file in the cluster's own directory
SUPERUSER = "referee"
SERVER_USER = "postgres"  # Debian's postgresql package makes it; root cannot run the server
NOT_INSTALLED = ("PostgreSQL is not installed (no initdb): scripts/setup.sh installs Debian's "
                 "postgresql")


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl (Debian keeps them out of PATH), None without them."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    newest = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                    key=lambda p: int(Path(p).parts[-3]))
    return Path(newest[-1]).parent if newest else None


class Cluster:
    """A running cluster: its folder, its socket, its superuser's password; stop() and start()
    it again as a hall's server would be."""

    def __init__(self, bin_dir: Path, folder: Path, user: str | None) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.user = user  # the server runs as this user; None: as we are
        self.password = secrets.token_urlsafe(16)

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        """A libpq URL to `database` over the private socket (the right password unless told)."""
        secret = self.password if password is None else password
        return (f"postgresql://{SUPERUSER}:{secret}@/{database}"
                f"?host={self.folder}&port={PORT}")

    def _run(self, *command: str) -> None:
        subprocess.run(command, check=True, timeout=STEP_SECONDS, capture_output=True,
                       user=self.user, cwd=self.folder)

    def init(self) -> None:
        """initdb, with password (SCRAM) authentication for everyone."""
        secret = self.folder / "password"
        secret.write_text(self.password)
        self._chown(secret)
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                  "--auth=scram-sha-256", f"--pwfile={secret}", "-E", "UTF8", "--no-sync")
        secret.unlink()

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = (f"-k {self.folder} -p {PORT} -c listen_addresses='' -c fsync=off "
                   "-c full_page_writes=off")
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.folder / "log"), "-o", options, "-w", "-t", str(STEP_SECONDS), "start")

    def stop(self) -> None:
        """Stop the server at once (connections cut), as a power cut of the hall's server does
        not, but a restart of it does."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                  "-t", str(STEP_SECONDS), "stop")

    def running(self) -> bool:
        """Whether the server is up (pg_ctl status)."""
        done = subprocess.run([str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "status"],
                              timeout=STEP_SECONDS, capture_output=True, user=self.user)
        return done.returncode == 0

    def kill(self) -> None:
        """The last resort when stop() fails: SIGKILL the postmaster, if any."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            with suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().split()[0]), 9)

    def _chown(self, path: Path) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)


@contextmanager
def cluster() -> Iterator[Cluster]:
    """A started throwaway cluster, stopped and deleted afterwards whatever happens."""
    bin_dir = binaries()
    if bin_dir is None:
        raise FileNotFoundError(NOT_INSTALLED)
    user = SERVER_USER if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    made = Cluster(bin_dir, folder, user)
    try:
        made._chown(folder)
        made.init()
        made.start()
        yield made
    finally:
        try:
            if made.running():
                made.stop()
        except (subprocess.SubprocessError, OSError):
            made.kill()
        shutil.rmtree(folder, ignore_errors=True)
