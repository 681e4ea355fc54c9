"""Throwaway servers for the tests (and benchmarks/load_server.py): a PostgreSQL cluster
(initdb and pg_ctl on a temporary folder, listening on a Unix socket only), Debian's
nginx on a generated configuration, and ``shengji serve`` processes. When this process
is root, PostgreSQL and nginx run as the unprivileged system user ``shengjitest``
(created once if missing): initdb refuses root, and a proxy needs no privileges.

Each missing piece is said in one line (``missing_postgres()``, ``missing_nginx()``)
that the tests skip with."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

USER = "shengjitest"
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_user() -> list[str]:
    """The command prefix that runs a program as the unprivileged user (nothing when
    this process is not root)."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={USER}", f"--regid={USER}", "--clear-groups", "--"]


def _ensure_user() -> str | None:
    """None when programs can run unprivileged here, else why not (one line)."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        return "setpriv is missing (util-linux)"
    try:
        import pwd
        pwd.getpwnam(USER)
        return None
    except KeyError:
        pass
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                           "/usr/sbin/nologin", USER], capture_output=True, text=True)
    if made.returncode != 0 and "already exists" not in made.stderr:
        return f"cannot create the user {USER}: {made.stderr.strip()[:100]}"
    return None


def missing_postgres() -> str | None:
    """Why the PostgreSQL tests cannot run here, in one line (None: they can)."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return "asyncpg is not installed (pip install 'shengji[postgres]')"
    if _pg_bin() is None:
        return "PostgreSQL is not installed (apt-get install postgresql; .ci/run does)"
    return _ensure_user()


def missing_nginx() -> str | None:
    if shutil.which("nginx") is None and not os.path.exists("/usr/sbin/nginx"):
        return "nginx is not installed (apt-get install nginx; .ci/run does)"
    return _ensure_user()


def _after_us(script: str) -> None:
    """Run ``script`` (sh) once this process has ended: what a killed test run (SIGKILL,
    a timeout) would leave running is stopped all the same."""
    watch = f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 2; done; {script}"
    subprocess.Popen(["sh", "-c", watch], start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _kill_after_us(pid: int, sig: str, then: str = "") -> None:
    """Signal process ``pid`` once this process has ended, if it is still the same
    process (its start time unchanged: a pid used again by another is left alone)."""
    with open(f"/proc/{pid}/stat") as f:
        started = f.read().rsplit(")", 1)[1].split()[19]
    now = f"$(sed 's/.*) //' /proc/{pid}/stat 2>/dev/null | cut -d' ' -f20)"
    _after_us(f'if [ "{now}" = "{started}" ]; then kill -{sig} {pid}; fi; {then}')


def _folder(prefix: str) -> str:
    """A short temporary folder (a Unix socket path must fit in 107 bytes) that the
    unprivileged user owns."""
    folder = tempfile.mkdtemp(prefix=prefix)
    os.chmod(folder, 0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, USER, USER)
    return folder


class PgCluster:
    """A throwaway PostgreSQL cluster; ``database()`` makes a fresh database and gives
    its ``postgresql://`` URL. ``durable``: fsync on (the load measurements); the tests
    leave it off (a killed shengji process, not a killed PostgreSQL, is what they test)."""

    def __init__(self, durable: bool = False):
        self.bin = _pg_bin()
        self.folder = _folder("sjpg")
        self.data = os.path.join(self.folder, "data")
        self._names = itertools.count()
        run = _as_user()
        subprocess.run(run + [str(self.bin / "initdb"), "-D", self.data, "--auth=trust",
                              "-U", "shengji", "-E", "UTF8", "--locale=C", "--no-sync"],
                       check=True, capture_output=True)
        self.options = (f"-c listen_addresses='' -c unix_socket_directories={self.folder} "
                        "-c max_connections=200 -c shared_buffers=64MB")
        if not durable:
            self.options += " -c fsync=off -c full_page_writes=off"
        self.start()
        stop = " ".join(_as_user() + [str(self.bin / "pg_ctl"), "-D", self.data, "-m",
                                      "immediate", "stop"])
        _after_us(f"if [ -d {self.data} ]; then {stop}; rm -rf {self.folder}; fi")

    def start(self) -> None:
        subprocess.run(_as_user() + [str(self.bin / "pg_ctl"), "-D", self.data, "-l",
                                     os.path.join(self.folder, "log"), "-w", "-o",
                                     self.options, "start"], check=True, capture_output=True)

    def halt(self) -> None:
        """Stop the server (``start()`` starts it again): the database goes away."""
        subprocess.run(_as_user() + [str(self.bin / "pg_ctl"), "-D", self.data, "-m", "fast",
                                     "-w", "stop"], check=True, capture_output=True)

    def url(self, name: str) -> str:
        return f"postgresql://shengji@/{name}?host={self.folder}"

    def database(self) -> str:
        name = f"rooms{next(self._names)}"
        subprocess.run([str(self.bin / "createdb"), "-h", self.folder, "-U", "shengji", name],
                       check=True, capture_output=True)
        return self.url(name)

    def postmaster_pid(self) -> int:
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def stop(self) -> None:
        subprocess.run(_as_user() + [str(self.bin / "pg_ctl"), "-D", self.data, "-m",
                                     "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_serve(db: str, port: int, *extra: str) -> subprocess.Popen:
    """``shengji serve`` on 127.0.0.1:port with ``--db db``, once it answers."""
    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "shengji.cli", "serve", "--db", db,
                             "--port", str(port), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    _kill_after_us(proc.pid, "KILL")
    for _ in range(1200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1)
            return proc
        except httpx.TransportError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()) from None
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Nginx:
    """Debian's nginx in the foreground on ``http_conf`` (what goes in the ``http``
    block), with every file it writes in a temporary folder."""

    def __init__(self, http_conf: str):
        self.folder = _folder("sjngx")
        conf = os.path.join(self.folder, "nginx.conf")
        temp = "\n".join(f"    {kind}_temp_path {self.folder}/{kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes 1;
worker_rlimit_nofile 16384;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
{temp}
{http_conf}
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.proc = subprocess.Popen(_as_user() + [nginx, "-p", self.folder, "-c", conf,
                                                   "-e", f"{self.folder}/error.log"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _kill_after_us(self.proc.pid, "TERM", f"rm -rf {self.folder}")

    def wait(self, port: int) -> None:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise AssertionError(self.proc.stderr.read().decode()) from None
                time.sleep(0.05)
        raise AssertionError("nginx did not start")

    def stop(self) -> None:
        stop(self.proc, signal.SIGTERM)  # not SIGQUIT: that one waits for the websockets
        shutil.rmtree(self.folder, ignore_errors=True)
