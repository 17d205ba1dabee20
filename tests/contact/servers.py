"""Real processes on the loopback address for the contact service tests: redis-server,
PostgreSQL, gunicorn and nginx, each started with a deadline and always stopped."""

import atexit
import glob
import http.client
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from tests.server import free_port, nginx_command
from tests.tools import missing_tool

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def wait_for_port(port, process, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"process exited with {process.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on 127.0.0.1:{port} within {timeout}s")


def eventually(check, timeout=10, interval=0.05):
    """The first truthy value of `check()`, polled until `timeout` seconds (then AssertionError):
    what the service does after its answer (the mail, the webhook) is looked for this way."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"not within {timeout} s: {check}"
        time.sleep(interval)


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def redis_server(tmp_path):
    """A throwaway redis-server on a free loopback port (no persistence); yields its URL."""
    with redis_process(tmp_path) as (url, _):
        yield url


@contextmanager
def redis_process(tmp_path):
    """redis_server(), yielding its URL and its process (to stop and resume it)."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing_tool("redis-server is not installed (Debian's redis-server package; make test installs it)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.send_signal(signal.SIGCONT)
        stop(process)


def service_env(tmp_path, **overrides):
    """The environment of the production contact service, with a migrated SQLite database."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CONTACT_", "EMAIL_", "REDIS_", "DEBUG", "SITE_URL", "DATABASE_URL"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="portfolio.settings",
        CONTACT_SERVICE="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        SITE_URL="https://portfolio.test",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'service.sqlite3'}",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        CONTACT_NOTIFY_EMAIL="owner@portfolio.test",
        # Known to the tests, which solve challenges signed with it (tests/contact/helpers.py).
        CONTACT_CHALLENGE_HMAC_KEY=secrets.token_hex(32),
        CONTACT_CHALLENGE_MAXNUMBER="1000",
    )
    env.update(overrides)
    return env


def postgres_bin(name):
    """A PostgreSQL server program: on PATH, else Debian's /usr/lib/postgresql/<version>/bin
    (the newest), which is not on PATH."""
    found = shutil.which(name)
    if found:
        return found
    candidates = glob.glob(f"/usr/lib/postgresql/*/bin/{name}")
    candidates.sort(key=lambda path: int(re.search(r"/(\d+)[^/]*/bin/", path)[1]))
    return candidates[-1] if candidates else None


@contextmanager
def postgres_server():
    """A throwaway PostgreSQL cluster (initdb into a temporary folder, its unix socket there
    too, no system service) on a free loopback port; yields it (a PostgresCluster: fresh
    databases, and the stop, start and SIGSTOP of a failing server). PostgreSQL refuses to run as
    root: as root, the cluster belongs to the `postgres` user of Debian's package (else
    `nobody`)."""
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    if not (initdb and pg_ctl):
        missing_tool(
            "PostgreSQL's initdb and pg_ctl are not installed (Debian's postgresql; make test installs it)"
        )
    as_user = []
    folder = Path(tempfile.mkdtemp(prefix="contact-postgres-"))
    if os.geteuid() == 0:
        user = next((u for u in ("postgres", "nobody") if _user_exists(u)), None)
        as_user = ["runuser", "-u", user, "--"]
        os.chown(folder, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
    cluster = PostgresCluster(folder, free_port(), as_user, pg_ctl)
    try:
        cluster.run(initdb, "-D", str(cluster.data), "-U", "contact", "-A", "trust", "-E", "UTF8",
                    "--no-locale", "--no-sync")  # fmt: skip
        cluster.start()
    except subprocess.CalledProcessError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {error.stderr.decode()}") from error
    try:
        yield cluster
    finally:
        cluster.resume()
        subprocess.run(
            as_user + [pg_ctl, "-D", str(cluster.data), "-m", "immediate", "stop"],
            cwd=folder,
            capture_output=True,
            timeout=30,
        )
        shutil.rmtree(folder, ignore_errors=True)


class PostgresCluster:
    def __init__(self, folder, port, as_user, pg_ctl):
        self.folder, self.data, self.port = folder, folder / "data", port
        self.as_user, self.pg_ctl = as_user, pg_ctl
        self.names = iter(range(1, 1000))

    def run(self, *args):
        subprocess.run(
            self.as_user + list(args), cwd=self.folder, check=True, capture_output=True, timeout=60
        )

    def create_database(self):
        """A new database; its DATABASE_URL."""
        import psycopg

        name = f"contact{next(self.names)}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="contact", dbname="postgres", autocommit=True
        ) as db:
            db.execute(f"CREATE DATABASE {name}")
        return f"postgres://contact@127.0.0.1:{self.port}/{name}"

    def start(self):
        durability = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"  # a test's data
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 {durability}"
        self.run(self.pg_ctl, "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options,
                 "-w", "-t", "30", "start")  # fmt: skip

    def stop(self):
        """A fast shutdown: every connection is closed, as in a restart or a crash."""
        self.run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")

    def pause(self):
        """SIGSTOP the server and all its processes: connections stay open, nothing answers."""
        self._signal(signal.SIGSTOP)

    def resume(self):
        self._signal(signal.SIGCONT)

    def _signal(self, number):
        pid_file = self.data / "postmaster.pid"
        if not pid_file.exists():
            return
        server = int(pid_file.read_text().split()[0])
        for pid in [server, *children(server)]:
            try:
                os.kill(pid, number)
            except ProcessLookupError:
                pass


def children(pid):
    """The process ids whose parent is `pid` (from /proc)."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.split("/")[2]))
    return found


def _user_exists(name):
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


_migrated_sqlite = {}


def migrate(env):
    """`manage.py migrate` as a deploy runs it. A fresh SQLite database is a copy of one migrated
    once per test run (the same file migrate writes, in a fraction of the time); one such copy with
    the admin's apps (CONTACT_SERVICE_ADMIN adds django-axes's tables), one without. Likewise a
    fresh PostgreSQL database is made again from one migrated once per cluster (its template)."""
    url = env["DATABASE_URL"]
    key = env.get("CONTACT_SERVICE_ADMIN", "")
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        if key not in _migrated_sqlite:
            folder = tempfile.mkdtemp(prefix="contact-sqlite-")
            atexit.register(shutil.rmtree, folder, True)
            template = Path(folder) / "migrated.sqlite3"
            run_migrate({**env, "DATABASE_URL": f"sqlite:///{template}"})
            _migrated_sqlite[key] = template
        shutil.copyfile(_migrated_sqlite[key], url.removeprefix("sqlite:///"))
        return
    if url.startswith("postgres://") and _postgres_tables(url) == 0:
        server, name = url.rsplit("/", 1)
        template = f"migrated{'_admin' if key else ''}"
        if not _postgres_execute(server, f"select 1 from pg_database where datname = '{template}'"):
            _postgres_execute(server, f"CREATE DATABASE {template}")
            run_migrate({**env, "DATABASE_URL": f"{server}/{template}"})
        _postgres_execute(server, f"DROP DATABASE {name}")
        _postgres_execute(server, f"CREATE DATABASE {name} TEMPLATE {template}")
        return
    run_migrate(env)


def _postgres_execute(server, sql):
    """The rows of one statement on the cluster's `postgres` database (`server`: its URL without
    a database name)."""
    import psycopg

    with psycopg.connect(f"{server}/postgres".replace("postgres://", "postgresql://"), autocommit=True) as db:
        cursor = db.execute(sql)
        return cursor.fetchall() if cursor.description else []


def _postgres_tables(url):
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as db:
        return db.execute("select count(*) from pg_tables where schemaname = 'public'").fetchone()[0]


def run_migrate(env):
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=60,
    )


@contextmanager
def gunicorn(env, log_dir, workers=1, args=()):
    """`gunicorn portfolio.wsgi` as docs/contact.md runs it (plus `args`), on a free loopback port;
    yields the port. Its output goes to gunicorn-<port>.log in log_dir."""
    with gunicorn_process(env, log_dir, workers, args) as (port, _):
        yield port


@contextmanager
def gunicorn_process(env, log_dir, workers=1, args=()):
    """gunicorn(), yielding its port and its master process (to stop and resume it)."""
    port = free_port()
    with open(Path(log_dir) / f"gunicorn-{port}.log", "wb") as log:
        process = subprocess.Popen(
            [
                str(GUNICORN),
                "portfolio.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                *args,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port, process)
            wait_for_a_worker(port, process)
            yield port, process
        finally:
            resume(process)  # a test may have stopped it
            stop(process)


def resume(process):
    for pid in process_group(process):
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass


def process_group(process):
    """A process and its children (gunicorn's master and workers), from /proc."""
    pids = [process.pid]
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # exited meanwhile
        if int(fields[1]) == process.pid:  # the parent's pid
            pids.append(int(Path(stat).parent.name))
    return pids


def wait_for_a_worker(port, process, timeout=30):
    """gunicorn listens before its workers have loaded Django: wait for a first answer, so no
    test measures a worker's start."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            request(port, "GET", "/api/contact")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no gunicorn worker answered on {port} within {timeout}s")


class Edge(NamedTuple):
    """A running nginx: its HTTPS port, its plain-HTTP port and its folder (error.log)."""

    port: int
    http_port: int
    folder: Path


def self_signed_certificate(folder):
    """A throwaway certificate for 127.0.0.1 (openssl's CLI): (certificate path, key path)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        missing_tool("openssl is not installed (Debian's openssl)")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
        check=True,
        capture_output=True,
        timeout=30,
    )  # fmt: skip
    return cert, key


@contextmanager
def nginx(service_port, tmp_path, rewrites=None):
    """nginx with deploy/contact-nginx.conf, its listen ports, certificate and upstream rewritten to
    loopback ports and a self-signed certificate, plus `rewrites` ({text: replacement}, each text
    present in the file); yields an Edge."""
    port, http_port = free_port(), free_port()
    folder = tmp_path / f"nginx-{port}"
    folder.mkdir()
    cert, key = self_signed_certificate(folder)
    server = (ROOT / "deploy" / "contact-nginx.conf").read_text()
    rewrites = {
        "listen 443 ssl;": f"listen 127.0.0.1:{port} ssl;",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "/etc/letsencrypt/live/contact.example.com/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/contact.example.com/privkey.pem": str(key),
        "http://127.0.0.1:8000": f"http://127.0.0.1:{service_port}",
        **(rewrites or {}),
    }
    for text, replacement in rewrites.items():
        assert text in server, text
        server = server.replace(text, replacement)
    process = subprocess.Popen(
        nginx_command(folder, server),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        wait_for_port(http_port, process)
        yield Edge(port, http_port, folder)
    finally:
        stop(process)


def tls_context():
    """A client TLS context that accepts the tests' self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def connect(port, source="127.0.0.1", tls=False, timeout=10):
    if tls:
        return http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=timeout, source_address=(source, 0), context=tls_context()
        )
    return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))


def request(port, method, path, body=None, headers=None, source="127.0.0.1", tls=False):
    """(status, headers, body) of one HTTP request to 127.0.0.1:port, from the loopback address
    `source` (any of 127.0.0.0/8), over TLS when `tls` (to nginx). Sent as nginx forwards a request
    that came over TLS (X-Forwarded-Proto: https; nginx replaces it with the true scheme): the
    service redirects plain HTTP to HTTPS, and the tests' peer, 127.0.0.1, is a trusted proxy."""
    connection = connect(port, source, tls)
    try:
        headers = {"X-Forwarded-Proto": "https", **(headers or {})}
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()
