import io
import json
import os
import signal
import subprocess
import sys

import pytest
from django.conf import settings

from portfolio.export.build import build
from tests.server import WRANGLER_START_GUARD, free_port, nginx_command, server_process, wait_for
from tests.tools import missing_tool

WRANGLER = settings.BASE_DIR / "tests" / "hosts" / "node_modules" / ".bin" / "wrangler"
WRANGLER_ENV = {"WRANGLER_SEND_METRICS": "false", "CLOUDFLARE_CF_FETCH_ENABLED": "false"}


def distill_local(content_dir, out_dir, db_path, *args, env=None, timeout=300):
    """Run the real `manage.py distill-local` in a fresh process with its own SQLite file."""
    environ = {
        k: v for k, v in os.environ.items() if k not in {"SITE_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    environ.update(CONTENT_DIR=str(content_dir), DATABASE_URL=f"sqlite:///{db_path}", **(env or {}))
    return subprocess.run(
        [sys.executable, "manage.py", "distill-local", str(out_dir), *args],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def site(db, content_dir, settings, tmp_path):
    """build(**options) into tmp_path/site (or `out`), in this process, from a fresh copy of the
    test content: each test may edit its content and build again."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir

    def run(out=tmp_path / "site", **options):
        return build(out, workers=1, stderr=io.StringIO(), **options)

    return run


def tree(folder):
    """{relative path: bytes} of every file under `folder`."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _background():
    processes = []

    def start(args, **kwargs):
        process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, **kwargs,
        )  # fmt: skip
        processes.append(process)
        return process

    yield start
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


@pytest.fixture
def background(request):
    """Start a server process in its own process group; stop the whole group after the test."""
    yield from _background()


@pytest.fixture(scope="module")
def module_background():
    """background, for servers a whole module shares (one build served once)."""
    yield from _background()


def start_nginx(site, background, tmp_path):
    """Serve `site` with deploy/nginx.conf (docs/hosting.md links it) on a free port; its base URL."""
    port = free_port()
    server = (settings.BASE_DIR / "deploy" / "nginx.conf").read_text()
    server = server.replace("listen 8080;", f"listen 127.0.0.1:{port};").replace(
        "/srv/portfolio/dist", str(site)
    )
    process = background(nginx_command(tmp_path, server))
    wait_for(f"http://127.0.0.1:{port}/", process, timeout=20)
    return f"http://127.0.0.1:{port}"


def on_workers(site, tmp_path, check):
    """check(base) against `wrangler dev` serving `site` as the Workers deploy does
    (deploy/wrangler.json, deploy/worker.js)."""
    config = json.loads((settings.BASE_DIR / "deploy" / "wrangler.json").read_text())
    config.pop("$schema")
    config["main"] = str(settings.BASE_DIR / "deploy" / "worker.js")
    config["assets"]["directory"] = str(site)
    (tmp_path / "wrangler.json").write_text(json.dumps(config))
    on_wrangler(["dev", "-c", str(tmp_path / "wrangler.json")], tmp_path, check)


def on_pages(site, tmp_path, check):
    """check(base) against `wrangler pages dev` serving `site` as Cloudflare Pages does."""
    on_wrangler(["pages", "dev", str(site), "--compatibility-date", "2026-04-01"], tmp_path, check)


def on_wrangler(command, cwd, check):
    """check(base) against `wrangler <command>` on a free port, started in `cwd` (where wrangler
    keeps its state, .wrangler/: not in the checkout). A cold first start of the Workers runtime
    has been seen to time out, so a second start is tried."""
    if not WRANGLER.exists():
        missing_tool("wrangler is not installed (make test runs npm ci in tests/hosts)")
    args = [str(WRANGLER), *command, "--ip", "127.0.0.1", "--port", "{port}"]
    args += ["--inspector-port", str(free_port())]
    for attempt in (1, 2):
        try:
            with server_process(args, WRANGLER_ENV, timeout=WRANGLER_START_GUARD, cwd=cwd) as base:
                check(base)
            return
        except RuntimeError:
            if attempt == 2:
                raise
