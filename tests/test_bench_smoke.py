"""Keep the benchmark from rotting: run it end to end on a tiny site. Nothing here is timed."""

import subprocess
import sys

from django.conf import settings

BENCH = settings.BASE_DIR / "bench"
FIGURES = [
    "floor (bench/floor.py)",
    "cold build",
    "cold / floor",
    "sample site (content/), cold build",
    "rebuild, no change",
    "rebuild, one article's body edited",
    "rebuild, its title edited",
    "files it rewrote",
    "peak memory, largest process (cold)",
    "peak memory, whole tree PSS (cold)",
    "server: one article (API)",
    "server: article list (API)",
    "server: article list (/articles)",
    "server: first request after a save",
]


def test_the_generator_is_deterministic(tmp_path):
    for name in ("a", "b"):
        args = [tmp_path / name, "--projects", "2", "--articles", "5", "--seed", "7"]
        subprocess.run([sys.executable, BENCH / "gen_content.py", *args], check=True, capture_output=True)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) == 2 + 2 + 5
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


def test_the_benchmark_prints_every_figure():
    args = ["--projects", "3", "--articles", "12", "--runs", "1", "--requests", "2", "--list-requests", "1"]
    result = subprocess.run(
        [sys.executable, BENCH / "run.py", *args, "--timeout", "120"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {line.strip().split("  ")[0]: line for line in result.stdout.splitlines()}
    for figure in FIGURES:
        assert figure in rows, f"{figure!r} missing from:\n{result.stdout}"
        assert " n/a " not in rows[figure], rows[figure]
