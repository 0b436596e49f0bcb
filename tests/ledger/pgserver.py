"""A throwaway PostgreSQL server for the fleet tests and the ledger benchmark.

initdb + pg_ctl from the system packages (/usr/lib/postgresql/*/bin) in a fresh temporary
directory, listening on 127.0.0.1 only, on a free port, with password authentication over TLS
only (a certificate from a CA the tests make: tests/ledger/certs.py; `hostssl` in pg_hba.conf, so a
client without TLS is turned away) or the Unix socket in that directory. PostgreSQL
refuses to run as root: as root the server runs as the `postgres` user (created by the package;
created here with useradd if missing), the directory chowned to it. Its environment carries the
test run's mark: a run that dies before `stop()` has its watchdog stop it (tests/reaper.py).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.ledger.certs import make_server_certs
from tests.processes import child_env
from tests.reaper import run_mark, temp_places

SERVER_USER = "postgres"
#: The free room the tmpfs needs to hold a test server's data (a few hundred MB each, one server
#: per pytest worker); a container's 64 MB /dev/shm is passed over for the disk.
MEMORY_ROOM = 2 * 1024**3


class PostgresMissing(RuntimeError):
    pass


def find_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise PostgresMissing(
        "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin): run "
        "`make sysdeps-test` or `apt-get install postgresql`")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, *, fsync: bool = False, max_connections: int = 200,
                 in_memory: bool = False) -> None:
        """`in_memory`: the data on the machine's tmpfs when it has room (the tests' databases,
        thrown away at the end): on a disk busy with other writes, removing a session's data
        waited for its pages' write-back, 9-65 s at the end of a loaded run."""
        self.bin = find_bin()
        self.fsync = fsync
        self.max_connections = max_connections
        self.in_memory = in_memory
        # Named with the run's mark: if the run dies before stop(), its watchdog removes it.
        places = temp_places()
        roomy = len(places) > 1 and shutil.disk_usage(places[-1]).free >= MEMORY_ROOM
        self.root = Path(tempfile.mkdtemp(prefix=f"pos-ledger-pg-{run_mark()}-",
                                          dir=places[-1] if in_memory and roomy else places[0]))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.password = secrets.token_hex(12)
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        self.user = "postgres"
        self.certs = make_server_certs(self.root)

    @property
    def ca_file(self) -> Path:
        return self.certs.ca

    @property
    def dsn(self) -> str:
        """The owner's DSN over TCP with verified TLS."""
        return (f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/postgres"
                f"?sslmode=verify-full&sslrootcert={self.certs.ca}")

    @property
    def socket_dsn(self) -> str:
        return (f"postgresql://{self.user}:{self.password}@/postgres?host={self.root}"
                f"&port={self.port}")

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self._as_root:
            cmd = ["runuser", "-u", SERVER_USER, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120,
                              env=child_env())

    def _ensure_user(self) -> None:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                            "/usr/sbin/nologin", SERVER_USER], check=True)
        entry = pwd.getpwnam(SERVER_USER)
        for path in (self.root, self.certs.cert, self.certs.key):
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def start(self) -> PgServer:
        if self._as_root:
            self._ensure_user()
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n", encoding="utf-8")
        if self._as_root:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(pwfile, entry.pw_uid, entry.pw_gid)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user,
                  "--pwfile", str(pwfile), "--auth", "scram-sha-256", "--no-sync",
                  "-E", "UTF8", "--locale", "C")
        pwfile.unlink()
        hba = self.data / "pg_hba.conf"
        hba.write_text("local all all scram-sha-256\n"
                       "hostssl all all 127.0.0.1/32 scram-sha-256\n"
                       "hostssl all all ::1/128 scram-sha-256\n", encoding="utf-8")
        if self._as_root:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(hba, entry.pw_uid, entry.pw_gid)
        self.pg_ctl("start")
        return self

    def pg_ctl(self, action: str) -> None:
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                f"-c unix_socket_directories={self.root} "
                f"-c max_connections={self.max_connections} "
                f"-c fsync={'on' if self.fsync else 'off'} -c ssl=on "
                f"-c ssl_cert_file={self.certs.cert} -c ssl_key_file={self.certs.key}")
        if self.in_memory:
            # its shared memory segments as files in the data directory, not as /dev/shm's
            # PostgreSQL.* (left there when the server is killed): removed with the directory
            opts += " -c dynamic_shared_memory_type=mmap"
        args = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                "-t", "60"]
        if action in ("start", "restart"):
            args += ["-o", opts]
        if action in ("stop", "restart"):
            args += ["-m", "fast"]
        result = self._run(*args, action, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"pg_ctl {action} failed: {result.stdout}{result.stderr}\n"
                               f"{self.log_text()}")

    def log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                      "stop", check=False)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
