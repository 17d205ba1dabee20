"""Keep the benchmark from rotting: run it end to end on a tiny site. Nothing here is timed."""

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from PIL import Image

from portfolio.content import media
from portfolio.export import search_index

BENCH = settings.BASE_DIR / "bench"
FIGURES = [
    "floor (with media)",
    "cold build (with media)",
    "cold / floor (with media)",
    "floor with search (with media)",
    "cold / floor with search (with media)",
    "CPU time: floor (with media)",
    "CPU time: cold build (with media)",
    "CPU time: cold / floor (with media)",
    "CPU time: floor with search (with media)",
    "CPU time: cold / floor with search (with media)",
    "floor (no media)",
    "cold build (no media)",
    "cold / floor (no media)",
    "floor with search (no media)",
    "cold / floor with search (no media)",
    "CPU time: floor (no media)",
    "CPU time: cold build (no media)",
    "CPU time: cold / floor (no media)",
    "files in the output (cold, with media)",
    "largest file (cold, with media)",
    "sample site, fresh clone (content/)",
    "sample site, warm caches",
    "rebuild, no change",
    "rebuild, one article's body edited",
    "rebuild, its title edited",
    "files it rewrote",
    "peak memory, largest process (cold)",
    "peak memory, whole tree PSS (cold)",
    "search index: cold build (with media)",
    "CPU time: search index (with media)",
    "search index: floor (with media)",
    "CPU time: floor's search index (with media)",
    "search index: body edit",
    "search index: title edit",
    "peak memory while indexing, whole tree PSS (cold)",
    "of it Pagefind's processes",
    "server: one article (API)",
    "server: article list (API)",
    "server: article list (/articles)",
    "server: first request after a save",
]


def test_the_generator_is_deterministic(tmp_path):
    for name in ("a", "b"):
        args = [tmp_path / name, "--projects", "2", "--articles", "5", "--images", "6", "--seed", "7"]
        subprocess.run([sys.executable, BENCH / "gen_content.py", *args], check=True, capture_output=True)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    media = [f for f in files if f.parts[0] == "media"]
    assert len(files) == 2 + 2 + 5 + 6
    # Photos, screenshots, an SVG, a narrow one and a palette diagram: the first six of the pattern.
    assert sorted({f.suffix for f in media}) == [".jpg", ".png", ".svg"]
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


def bench_module(name):
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


def test_the_builds_phases_are_read_whatever_their_names():
    run = bench_module("run")
    line = (
        "Built 31,012 files (512.3 MB) in 58.1 s (wall/CPU: import 1.2/2.0 s, plan 0.3/0.3 s, "
        "render 5.2/9.6 s, verify 0.04/0.2 s, publish 0.1/0.1 s): dist"
    )
    assert run.phases("migrating\n" + line + "\n") == [
        ("import", 1.2, 2.0),
        ("plan", 0.3, 0.3),
        ("render", 5.2, 9.6),
        ("verify", 0.04, 0.2),
        ("publish", 0.1, 0.1),
    ]
    assert run.describe_phases("Up to date\n") == "no phases printed"


def test_the_floor_resizes_images_as_the_build_does():
    """floor.py copies media.py's constants (it cannot import it without Django): keep them equal."""
    floor = bench_module("floor")
    for name in ("RESIZABLE", "LAYOUT_WIDTH", "VARIANT_WIDTHS", "VARIANT_QUALITY"):
        assert getattr(floor, name) == getattr(media, name), name


def test_the_floor_cuts_the_search_index_as_the_build_does():
    """floor.py copies search_index.py's bundling and Pagefind options (it cannot import them
    without Django): the same constants, and the same bundles for the same page paths."""
    floor = bench_module("floor")
    for name in ("PAGES_PER_BUNDLE", "MAX_BUNDLES", "EXCLUDE"):
        assert getattr(floor, name) == getattr(search_index, name), name
    for pages in (0, 1, 250, 251, 1000, 1001, 8000, 8001, 11000, 40000):
        assert floor.bundle_count(pages) == search_index.bundle_count(pages), pages
    paths = [f"{kind}/item-{n:05}.html" for kind in ("articles", "projects") for n in range(300)]
    for count in (1, 2, 4, 32):
        assert [floor.bundle_of(p, count) for p in paths] == [search_index.bundle_of(p, count) for p in paths]
    assert len({floor.bundle_of(p, 4) for p in paths}) == 4  # the paths are spread, not all in one


def test_the_floor_makes_the_builds_variants(tmp_path):
    """The floor does the build's image work: the same variants, byte for byte, from the same
    chain (EXIF turn, mode conversion, each width resized from the next larger, filter, quality,
    method). A photo stored sideways, a palette diagram and a screenshot with transparency."""
    floor = bench_module("floor")
    sources = tmp_path / "media"
    sources.mkdir()
    sideways = Image.Exif()
    sideways[0x0112] = 6  # stored 1500 x 800, shown 800 x 1500
    images = {
        "photo.jpg": (Image.linear_gradient("L").resize((1500, 800)).convert("RGB"), {"exif": sideways}),
        "diagram.png": (Image.radial_gradient("L").resize((1300, 700)).convert("P"), {}),
        "screen.png": (Image.linear_gradient("L").resize((1100, 600)).convert("LA"), {}),
    }
    for name, (image, options) in images.items():
        image.save(sources / name, **options)
    cache, out = tmp_path / "cache", tmp_path / "floor"
    cache.mkdir()
    (out / "media" / "_v").mkdir(parents=True)
    floor.start_worker(str(out), "Site")
    for name in images:
        source = sources / name
        width, _, resizable = media.measure(source.read_bytes(), name)
        widths = media.variant_widths(width, resizable)
        assert widths, name
        made, problem = media.make_variants(
            (str(source), [(w, f"{w}-{name}.webp") for w in widths], str(cache))
        )
        assert (made, problem) == (len(widths), None)
        assert floor.publish_media((str(source), name)) == len(widths)
        for w in widths:
            built = (cache / f"{w}-{name}.webp").read_bytes()
            assert (out / "media" / "_v" / f"{name}-{w}.webp").read_bytes() == built, (name, w)


def test_the_benchmark_prints_every_figure():
    args = ["--projects", "3", "--articles", "12", "--runs", "1", "--requests", "2", "--list-requests", "1"]
    args.append("--keep")  # to look at the run's media cache
    args += ["--python", sys.executable]  # not the site-only environment, which pip would install
    result = subprocess.run(
        [sys.executable, BENCH / "run.py", *args, "--timeout", "120"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "\nkept " in result.stdout, result.stdout + result.stderr
    kept = Path(result.stdout.rsplit("\nkept ", 1)[1].strip())
    try:
        assert result.returncode == 0, result.stdout + result.stderr
        assert "4 images" in result.stdout, result.stdout  # the generated content has media
        assert "content without media: generated 3 projects, 12 articles" in result.stdout
        # The cold build made its variants in the run's own cache, not the project's.
        assert len(list((kept / "run-0" / "media" / "media-cache").glob("*.webp"))) >= 4
    finally:
        shutil.rmtree(kept, ignore_errors=True)
    # Each run's lines give the cold builds' phases, read from the build's own last line, and the
    # floor's search step.
    for label in ("", ", no media"):
        floor = r"floor [\d.]+ s \([^)]*system; search index [\d.]+/[\d.]+ s\)"
        line = rf"^run 1{label}: {floor}, cold build [\d.]+ s \(.*; \w+ [\d.]+/[\d.]+ s(, |\)$)"
        assert re.search(line, result.stdout, re.M), result.stdout
    rows = {line.strip().split("  ")[0]: line for line in result.stdout.splitlines()}
    for figure in FIGURES:
        assert figure in rows, f"{figure!r} missing from:\n{result.stdout}"
        assert " n/a " not in rows[figure], rows[figure]
    # One run of the floor gives both figures: with its search index, and without it (that run
    # minus its search step).
    figures = ("floor (with media)", "floor with search (with media)", "search index: floor (with media)")
    floor, with_search, step = (float(re.search(r"  ([\d.]+) s", rows[f])[1]) for f in figures)
    assert step > 0
    assert abs(with_search - floor - step) < 0.02, (floor, with_search, step)
