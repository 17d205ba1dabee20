"""`manage.py import_from` at its edges: nothing outside SOURCE is read, hostile posts convert in
linear time, one move into a DEST at a time, and every failure is one named line with DEST as it
was (issue 51's reproducers)."""

import io
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from .helpers import POST, SITES, move


def failed_move(generator, source, dest):
    """Run the real command, which must fail; (its one-line error, its report)."""
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_from", generator, str(source), "--into", str(dest), stdout=out, stderr=out)
    assert "\n" not in str(caught.value)
    return str(caught.value), out.getvalue()


@pytest.fixture
def secret(tmp_path):
    """A file outside SOURCE, shaped as a post would be."""
    path = tmp_path / "outside" / "secret.md"
    path.parent.mkdir()
    path.write_text(POST.format(title="Secret", body="root:x:0:0:the secret"))
    return path


def test_a_linked_post_outside_source_is_skipped(tmp_path, secret):
    source = shutil.copytree(SITES / "jekyll", tmp_path / "jekyll")
    (source / "_posts/2020-01-01-passwd.md").symlink_to(secret)
    (source / "_posts/2020-01-02-etc.md").symlink_to("/etc/passwd")
    (source / "_posts/2020-01-03-inside.md").symlink_to(source / "_posts/2015-01-01-relay-board.md")
    report, files = move("jekyll", source, tmp_path / "dest")
    assert f"_posts/2020-01-01-passwd.md: leads out of SOURCE (to {secret}): not read" in report
    assert "_posts/2020-01-02-etc.md: leads out of SOURCE (to /etc/passwd): not read" in report
    assert "articles/passwd.md" not in files and "articles/etc.md" not in files
    assert not any(b"the secret" in data or b"root:x:0:0" in data for data in files.values())
    assert "articles/inside.md" in files  # a link that stays inside SOURCE is followed


def test_a_linked_posts_folder_outside_source_is_skipped(tmp_path, secret):
    source = shutil.copytree(SITES / "jekyll", tmp_path / "jekyll")
    outside = secret.parent / "_posts"
    outside.mkdir()
    (outside / "2020-01-01-secret.md").write_text(secret.read_text())
    (source / "blog/_posts").rename(tmp_path / "was")
    (source / "blog/_posts").symlink_to(outside, target_is_directory=True)
    report, files = move("jekyll", source, tmp_path / "dest")
    assert f"blog/_posts/: leads out of SOURCE (to {outside}): not read" in report
    assert "articles/secret.md" not in files
    assert not any(b"the secret" in data for data in files.values())


@pytest.mark.parametrize("content_dir", ["../elsewhere", "ABSOLUTE", "link"])
def test_a_hugo_content_folder_outside_source_is_not_read(tmp_path, secret, content_dir):
    source = shutil.copytree(SITES / "hugo", tmp_path / "hugo")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "posts").mkdir(parents=True)
    (elsewhere / "posts/secret.md").write_text(secret.read_text())
    (source / "link").symlink_to(elsewhere, target_is_directory=True)
    content_dir = str(elsewhere) if content_dir == "ABSOLUTE" else content_dir
    config = (source / "hugo.toml").read_text()
    (source / "hugo.toml").write_text(f'contentDir = "{content_dir}"\n' + config)
    error, _ = failed_move("hugo", source, tmp_path / "dest")
    assert f"its contentDir {content_dir!r} leads out of SOURCE" in error
    assert not (tmp_path / "dest").exists()


def test_a_linked_config_outside_source_is_not_read(tmp_path):
    source = shutil.copytree(SITES / "hugo", tmp_path / "hugo")
    outside = tmp_path / "outside.toml"
    outside.write_text('title = "Read from outside"\n')
    (source / "hugo.toml").unlink()
    (source / "hugo.toml").symlink_to(outside)
    report, files = move("hugo", source, tmp_path / "dest")
    assert f"hugo.toml: leads out of SOURCE (to {outside}): not read" in report
    assert b"Read from outside" not in files["site.yaml"]


def start_move(generator, source, dest):
    """`manage.py import_from GENERATOR SOURCE --into DEST` as its own process."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "import_from", generator, str(source), "--into", str(dest)],
        cwd=settings.BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "portfolio.settings"},
    )  # fmt: skip


# Bodies that made the move's patterns backtrack: each about 1 MB, most of it one shape.
HOSTILE = {
    "html-image": "<img src=" * 105_000,
    "html-image-quoted": '<img alt="x" src="' * 52_000,
    "html-links": "<a href=" * 115_000,
    "html-links-quoted": '<a title="x" href="' * 50_000,
    "links-to-nothing": "[a](/x/) <a href=/y/>b</a>\n" * 34_000,  # a warning each, at its line
    "image-in-brackets": "![a](<" * 155_000,
    "link-titles": '[a](b "' * 135_000,
    "code-spans": "".join("`" * n + " x " for n in range(1, 1_350)),
    "shortcodes": "{{< x " * 155_000,
    "escaped-shortcodes": "{{</* x " * 118_000,
    "highlights": "{{< highlight go >}}\n" * 45_000,
    "inline-shortcodes": "".join(f"{{{{< a{n}.inline >}}}}\n" for n in range(43_000)),
    "liquid": "{% raw %}{% comment %}{% highlight py %}" * 24_000,
    "liquid-tags": "{% x " * 188_000 + "{{ y " * 10,
    "kramdown-attribute-lists": "{:a " * 240_000,
    "kramdown-extensions": "{::a " * 190_000,
    "kramdown-heading-ids": "".join(f"## a{n}\n{{: #b{n} .c}}\n" for n in range(40_000)),
    "kramdown-abbreviations": "*[a]: b\n" * 120_000,
    "heading-attributes": "".join(f"## a{n} {{#b{n} .c}}\n" for n in range(42_000)),
    "definition-lists": "Term\n: its definition\n\n" * 42_000,
}


@pytest.mark.parametrize("shape", HOSTILE)
def test_a_hostile_body_converts_in_linear_time(tmp_path, shape):
    """Every pattern the move applies to a body, on the body that made it (or one like it) take
    minutes: a 13.5 KB post of `<img src=` took 20 s. Liquid and kramdown are Jekyll's, the rest
    Hugo's."""
    body, generator = HOSTILE[shape], "jekyll" if shape.startswith(("liquid", "kramdown")) else "hugo"
    assert 900_000 < len(body) < settings.CONTENT_MAX_FILE_BYTES - 10_000
    source = tmp_path / "site"
    if generator == "hugo":
        (source / "content/posts").mkdir(parents=True)
        post = source / "content/posts/hostile.md"
    else:
        (source / "_posts").mkdir(parents=True)
        post = source / "_posts/2020-01-01-hostile.md"
    post.write_text(POST.format(title="Hostile", body=body))
    started = time.perf_counter()
    process = start_move(generator, source, tmp_path / "dest")
    try:  # its own process: a pattern that backtracks is not interrupted by anything in this one
        done = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()  # not left converting after the test
        process.communicate()
        pytest.fail(f"{shape}: still converting after 60 s")
    took = time.perf_counter() - started
    assert "hostile.md" in done[0] + done[1]  # converted or failed (this odd a body may break the format)
    assert took < 15, f"{shape}: {took:.1f} s"


@pytest.mark.parametrize(
    "front_matter, expected",
    [
        ("+++\nx = " + "[" * 5_000 + "]" * 5_000 + "\n+++\n", "invalid TOML front matter: nested too deep"),
        ('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}\n", "invalid JSON front matter: nested too deep"),
        ("---\nx: " + "[" * 5_000 + "]" * 5_000 + "\n---\n", "nested deeper than 20 levels"),
    ],
)
def test_deep_front_matter_is_a_failed_line(tmp_path, front_matter, expected):
    source = shutil.copytree(SITES / "hugo", tmp_path / "hugo")
    (source / "content/posts/deep.md").write_text(front_matter + "Text\n")
    error, report = failed_move("hugo", source, tmp_path / "dest")
    assert "1 file could not be converted; nothing was written" in error
    failed = [line for line in report.splitlines() if line.startswith("failed ")]
    assert failed == [f"failed     content/posts/deep.md: {failed[0].split(': ', 1)[1]}"]
    assert expected in failed[0]
    assert "Traceback" not in report
    assert not (tmp_path / "dest").exists()


def test_a_post_over_the_formats_limit_fails(tmp_path, settings):
    settings.CONTENT_MAX_FILE_BYTES = 5_000
    source = shutil.copytree(SITES / "jekyll", tmp_path / "jekyll")
    (source / "_posts/2020-01-01-big.md").write_text(POST.format(title="Big", body="word " * 2_000))
    # Under the limit as written, over it once converted (each image's address grows).
    (source / "_posts/2020-01-02-grows.md").write_text(
        POST.format(title="Grows", body="![](/assets/img/bench.png)\n" * 180)
    )
    error, report = failed_move("jekyll", source, tmp_path / "dest")
    assert "2 files could not be converted; nothing was written" in error
    assert "_posts/2020-01-01-big.md: 10," in report and "over the limit of 5,000 bytes per file" in report
    assert "articles/grows.md: file: " in report and "(CONTENT_MAX_FILE_BYTES)" in report
    assert not (tmp_path / "dest").exists()


def test_a_dest_linked_to_nothing_is_one_line(tmp_path):
    (tmp_path / "dest").symlink_to(tmp_path / "nowhere")
    error, _ = failed_move("hugo", SITES / "hugo", tmp_path / "dest")
    assert error == f"{tmp_path / 'dest'}: a symbolic link to nothing; nothing was written"
    assert (tmp_path / "dest").is_symlink() and not (tmp_path / "nowhere").exists()


def test_one_move_at_a_time_and_an_interrupted_one_writes_nothing(tmp_path):
    source = tmp_path / "big"
    (source / "_posts").mkdir(parents=True)
    for number in range(6_000):
        (source / f"_posts/2020-01-01-post-{number}.md").write_text(
            POST.format(title=f"Post {number}", body=f"Paragraph {number}, *emphasised*.")
        )
    dest = tmp_path / "dest"
    first = start_move("jekyll", source, dest)
    try:
        line = first.stderr.readline()  # the progress line: converting, a second in
        assert line.startswith("converting: "), line + first.stderr.read()
        second = start_move("jekyll", SITES / "jekyll", dest)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 1
        assert f"another move into {dest} is running (PID {first.pid} on " in err
        assert "Traceback" not in err
        assert first.poll() is None, "the first move ended before the test could interrupt it"
        first.send_signal(signal.SIGINT)
        _, err = first.communicate(timeout=60)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 128 + signal.SIGINT
    assert f"Interrupted by SIGINT: nothing was written to {dest}" in err and "Traceback" not in err
    assert not dest.exists() and not dest.with_name(".dest.moving-in").exists()
    report, files = move("jekyll", SITES / "jekyll", dest)  # the lock went with the process
    assert "articles/relay-board.md" in files


def test_a_post_in_several_series_keeps_the_first(tmp_path):
    """Hugo's `series` is a taxonomy (a list): an article is a part of one series, the first,
    and the others are named in a warning."""
    source = tmp_path / "old"
    post = source / "content" / "posts" / "twice.md"
    post.parent.mkdir(parents=True)
    (source / "hugo.toml").write_text('title = "Old"\nbaseURL = "https://old.example/"\n')
    post.write_text('---\ntitle: "Twice"\ndate: 2021-01-02\nseries: ["First series", "Second"]\n---\nBody.\n')
    out = io.StringIO()
    call_command("import_from", "hugo", str(source), "--into", str(tmp_path / "new"), stdout=out, stderr=out)
    text = (tmp_path / "new" / "articles" / "twice.md").read_text()
    assert 'series: "First series"\n' in text
    assert "series: 'Second' left out: an article is a part of one series" in out.getvalue()


def astro_site(root, config, modules):
    """An Astro 5 site whose src/content.config.ts is `config` and whose other files are `modules`
    ({path: text}), with one post under src/data/posts/."""
    (root / "src/data/posts").mkdir(parents=True)
    (root / "src/data/posts/hello.md").write_text(POST.format(title="Hello", body="Hi."))
    (root / "src/content.config.ts").write_text(
        'import { defineCollection } from "astro:content";\nimport { glob } from "astro/loaders";\n'
        + config
        + '\nconst posts = defineCollection({ loader: glob({ base: BASE, pattern: "**/*.md" }) });\n'
        "export const collections = { posts };\n"
    )
    for rel, text in modules.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.mark.parametrize(
    "config, modules",
    [
        (
            'import { DATA } from "./consts";\nconst BASE = `${DATA}/posts`;',
            {"src/consts.ts": 'export const DATA = "./src/data";\n'},
        ),
        (
            'import { POSTS as BASE } from "./consts.js";',  # TypeScript's spelling of consts.ts
            {"src/consts.ts": 'const ROOT = "src";\nexport const POSTS = `${ROOT}/data/posts`;\n'},
        ),
        (
            'import { BASE } from "./paths";',
            {"src/paths/index.ts": "export const BASE = 'src/data/posts' as const;\n"},
        ),
        (
            'import { type Path, BASE } from "@/config";',
            {"src/config.mjs": 'export const BASE = "src/data/posts";\n'},
        ),
    ],
)
def test_an_astro_base_imported_from_a_module_of_the_site_is_read(tmp_path, config, modules):
    source = astro_site(tmp_path / "astro", config, modules)
    report, files = move("astro", source, tmp_path / "dest")
    assert "converted  src/data/posts/hello.md -> articles/hello.md" in report
    assert "articles/hello.md" in files


@pytest.mark.parametrize(
    "config, modules, why",
    [
        (
            'import { BASE } from "astro-paths";',
            {},
            "is imported from 'astro-paths', a package, not a file of SOURCE",
        ),
        (
            'import { BASE } from "../../outside/consts";',
            {},
            "is imported from '../../outside/consts', which is outside SOURCE",
        ),
        (
            'import { BASE } from "./linked";',
            {},
            "is imported from './linked', which leads out of SOURCE (to ",
        ),
        ('import { BASE } from "./nowhere";', {}, "is imported from './nowhere', which is no file of SOURCE"),
        (
            'import { BASE } from "./consts";',
            {"src/consts.ts": "export const BASE = path.join('src', 'data');\n"},
            "is imported from './consts', where BASE is not an `export const` of a string",
        ),
        (
            'import { BASE } from "./consts";',
            {"src/consts.ts": "const BASE = 'src/data/posts';\n"},
            "is imported from './consts', where BASE is not an `export const` of a string",
        ),
        (
            'import BASE from "./consts";',
            {"src/consts.ts": "export default 'src/data/posts';\n"},
            "cannot be read without running it",
        ),
    ],
)
def test_an_astro_base_imported_otherwise_is_refused_saying_why(tmp_path, config, modules, why):
    outside = tmp_path / "outside/consts.ts"
    outside.parent.mkdir()
    outside.write_text('export const BASE = "src/data/posts";\n')
    source = astro_site(tmp_path / "astro", config, modules)
    (source / "src/linked.ts").symlink_to(outside)
    error, _ = failed_move("astro", source, tmp_path / "dest")
    assert f"src/content.config.ts: the collection 'posts': its glob() base BASE {why}" in error, error
    assert error.endswith("; not read") and not (tmp_path / "dest").exists()
