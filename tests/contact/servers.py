"""Real processes on the loopback address for the contact service tests: redis-server and
gunicorn, each started with a deadline and always stopped."""

import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (Debian's redis-server package; make test installs it)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
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
    )
    env.update(overrides)
    return env


def migrate(env):
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=60,
    )


@contextmanager
def gunicorn(env, log_dir):
    """`gunicorn portfolio.wsgi` as the README runs it, on a free loopback port; yields the port.
    Its output goes to gunicorn-<port>.log in log_dir."""
    port = free_port()
    with open(Path(log_dir) / f"gunicorn-{port}.log", "wb") as log:
        process = subprocess.Popen(
            [str(GUNICORN), "portfolio.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port, process)
            yield port
        finally:
            stop(process)


def request(port, method, path, body=None, headers=None):
    """(status, headers, body) of one HTTP request to 127.0.0.1:port."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = dict(headers or {})
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()
