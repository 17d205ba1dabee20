"""Run a real `manage.py` server process on a free loopback port, for tests of what a writer or
a deploy actually runs."""

import itertools
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from tests.tools import missing_tool


def nginx_command(folder, server):
    """The command that runs nginx with `server` (a server block) as its only site, its pid, logs
    and temporary files in `folder`; skips the test when Debian's nginx is not installed."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if binary is None:
        missing_tool("nginx is not installed (Debian's nginx; make test installs it)")
    (folder / "nginx.conf").write_text(
        # pytest's temporary folders are private: run the workers as this user, not nobody.
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"pid {folder}/nginx.pid; error_log {folder}/error.log; daemon off;\n"
        f"events {{}}\nhttp {{ include /etc/nginx/mime.types; access_log off;\n"
        f"client_body_temp_path {folder}; proxy_temp_path {folder}; fastcgi_temp_path {folder};\n"
        f"uwsgi_temp_path {folder}; scgi_temp_path {folder};\n{server}\n}}\n"
    )
    return [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")]


# The ports a test's server listens on. Asking the kernel for one (binding port 0) and closing
# the socket before the server binds it is a race: the kernel may hand the same port to the other
# xdist worker, or to any outgoing connection, in between. So each test process takes its ports
# from a block of its own below the kernel's ephemeral range (which neither binding port 0 nor a
# connection ever picks), in turn, skipping any port something already holds.
PORTS_START = 10_000
PORTS_PER_PROCESS = 2_000


def _ephemeral_start():
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _port_block():
    """This process's ports, in turn: an xdist worker's own block (gw0 the first); a run without
    xdist the last block, from a random place in it, so that two such runs at once seldom meet."""
    blocks = max(2, (_ephemeral_start() - PORTS_START) // PORTS_PER_PROCESS)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker:
        block, offset = int(worker.removeprefix("gw")) % (blocks - 1), 0
    else:
        block, offset = blocks - 1, random.randrange(PORTS_PER_PROCESS)
    ports = range(PORTS_START + block * PORTS_PER_PROCESS, PORTS_START + (block + 1) * PORTS_PER_PROCESS)
    return itertools.cycle([*ports[offset:], *ports[:offset]])


_ports = None


def free_port():
    """A loopback port for a server this test starts: this process's next port that nothing
    holds (see PORTS_START)."""
    global _ports
    if _ports is None:
        _ports = _port_block()
    for _ in range(PORTS_PER_PROCESS):
        port = next(_ports)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))  # no SO_REUSEADDR: a port in TIME_WAIT is skipped too
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in this process's block of {PORTS_PER_PROCESS}")


# How long `wrangler dev` and `wrangler pages dev` may take to answer before their start counts as
# failed (and is tried once more: a cold first start of the Workers runtime has been seen to give
# up). They answer in 2-4 s beside the other xdist worker's tests, the first start after `npm ci`
# too, and in 7 s on a machine loaded three times over: a guard against a hang, not a wait.
WRANGLER_START_GUARD = 30


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at, not to follow


_opener = urllib.request.build_opener(_NoRedirects)


def fetch(url, data=None, headers=None, method=None):
    """(status, headers, body) of one request: redirects are not followed, errors are answers."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with _opener.open(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def wait_for(url, process, timeout=60):
    """Wait until `url` answers; fail with the process's output if it exits first. Both failures
    are RuntimeError, which the wrangler starts try once more: a cold first start of the Workers
    runtime has been seen to exit, and to take a connection and never answer it."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"server exited:\n{process.stdout.read()}")
        try:
            fetch(url)
            return
        except OSError as error:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not answer within {timeout} s: {error}") from error
            time.sleep(0.2)


@contextmanager
def manage_py_server(args, env, ready_path="/admin/login/", timeout=30):
    """Start `python manage.py <args>` with `{port}` in args filled in; yield the base URL."""
    port = free_port()
    args = [arg.replace("{port}", str(port)) for arg in args]
    process = subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + ready_path, process, timeout)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def server_process(args, env=None, ready_path="/", timeout=30, cwd=None):
    """Start `args` ({port} filled in) in its own process group and yield the base URL; stop the
    whole group afterwards (runserver's autoreloader and wrangler start children of their own)."""
    port = free_port()
    process = subprocess.Popen(
        [str(arg).replace("{port}", str(port)) for arg in args],
        cwd=cwd or settings.BASE_DIR,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}{ready_path}", process, timeout)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def raw_get(base, path, headers=None, timeout=10):
    """(status, {lowercase name: value}, body) of one GET of `path` (bytes, sent exactly as given:
    a raw UTF-8 path, an encoded dot segment) on a plain socket, read to the server's close. A
    server that never finishes its answer fails the test by the timeout instead of blocking it."""
    host, port = base.removeprefix("http://").split(":")
    headers = {"Host": f"{host}:{port}", "Connection": "close", **(headers or {})}
    lines = [b"GET " + path + b" HTTP/1.1", *(f"{name}: {value}".encode() for name, value in headers.items())]
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):  # socket.timeout (an OSError) if the answer never ends
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, body
