"""writer.py: DEST's site.yaml and stack.yaml made when missing, an existing site.yaml changed in
its imageHosts and languages only, the files written whole (a file whose bytes would not change
is not touched), and one move into a DEST at a time."""

import os
from pathlib import Path

import pytest
import yaml

from portfolio.movein import writer
from portfolio.movein.convert import Plan
from portfolio.movein.jekyll import Jekyll


def jekyll_site(tmp_path, config):
    """A real reader of a Jekyll site whose _config.yml is `config`: the site writer.py describes."""
    source = tmp_path / "old"
    (source / "_posts").mkdir(parents=True)
    (source / "_config.yml").write_text(config)
    return Jekyll(source)


def plan_of(hosts=(), languages=(), files=None):
    return Plan(
        outcomes=[], files=files or {}, copies={}, hosts=set(hosts), addresses=0, languages=list(languages)
    )


def test_a_new_dest_gets_a_site_yaml_from_the_old_config_and_an_empty_stack(tmp_path):
    site = jekyll_site(
        tmp_path, 'title: Old "Blog"\ndescription: Notes\nauthor: Ada\nurl: https://old.example.org\n'
    )
    plan = plan_of(
        hosts={"b.org", "a.org"}, files={"articles/x.md": b"---\ntitle: X\ndate: 2021-03-04\n---\n"}
    )
    files, notes = writer.site_files(tmp_path / "dest", site, plan)
    assert yaml.safe_load(files["site.yaml"]) == {
        "title": 'Old "Blog"', "description": "Notes", "author": "Ada", "url": "https://old.example.org",
        "imageHosts": ["a.org", "b.org"],
    }  # fmt: skip
    assert files["stack.yaml"] == b'lastUpdated: 2021-03-04\ncurrentFocus: ""\nmodels: []\ndailyDrivers: []\n'
    assert notes == [
        "site.yaml: written with the old site's title 'Old \"Blog\"'",
        "stack.yaml: written empty: fill in the stack profile (docs/content-format.md)",
    ]


def test_a_config_without_title_or_url_gets_placeholders_and_says_so(tmp_path):
    site = jekyll_site(tmp_path, "baseurl: /blog\n")
    files, notes = writer.site_files(tmp_path / "dest", site, plan_of(languages=["en", "fr"]))
    written = yaml.safe_load(files["site.yaml"])
    assert (written["title"], written["url"], written["author"]) == (
        "My site",
        "https://example.com",
        "My site",
    )
    assert written["description"] == "Articles moved in from Jekyll."
    assert written["languages"] == [{"code": "en"}, {"code": "fr"}]
    assert "site.yaml: url is https://example.com: set your site's address (or SITE_URL)" in notes
    assert "site.yaml: written; the old site's title could not be read: set title and author" in notes
    assert "site.yaml: languages lists en, fr, the default first" in notes


def test_an_existing_dest_keeps_its_files_but_gets_its_image_hosts_and_languages(tmp_path):
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "site.yaml").write_bytes("\ufefftitle: Mine\r\nimageHosts:\r\n  - a.org\r\n".encode())
    (dest / "stack.yaml").write_text("lastUpdated: 2020-01-01\n")
    files, notes = writer.site_files(
        dest, jekyll_site(tmp_path, "title: Old\n"), plan_of({"b.org"}, ["en", "fr"])
    )
    assert files == {
        "site.yaml": b'title: Mine\nimageHosts:\n  - "a.org"\n  - "b.org"\nlanguages:\n  - code: "en"\n'
                     b'  - code: "fr"\n'
    }  # fmt: skip
    assert notes == ["site.yaml: imageHosts now lists b.org", "site.yaml: languages now lists en, fr"]


def test_an_existing_site_yaml_that_lists_all_is_not_rewritten(tmp_path):
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "site.yaml").write_text("title: Mine\nimageHosts: [a.org]\nlanguages:\n  - code: de\n")
    (dest / "stack.yaml").write_text("")
    assert writer.site_files(dest, jekyll_site(tmp_path, ""), plan_of({"a.org"}, ["en", "fr"])) == ({}, [])


@pytest.mark.parametrize("text", [b"title: [\n", b"title: caf\xe9\n"])
def test_an_unreadable_site_yaml_stops_the_move_naming_it(tmp_path, text):
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "site.yaml").write_bytes(text)
    with pytest.raises(writer.SiteUnreadable, match=str(dest / "site.yaml")):
        writer.site_files(dest, jekyll_site(tmp_path, ""), plan_of({"a.org"}))


@pytest.mark.parametrize(
    "text, merged",
    [
        ("", 'imageHosts:\n  - "a.org"\n  - "b.org"\n'),
        ("title: T", 'title: T\nimageHosts:\n  - "a.org"\n  - "b.org"\n'),
        ("imageHosts: [b.org]\ntitle: T\n", 'title: T\nimageHosts:\n  - "b.org"\n  - "a.org"\n'),
        ("title: T\nimageHosts: []\nauthor: Ünï\n",
         'title: T\nauthor: Ünï\nimageHosts:\n  - "a.org"\n  - "b.org"\n'),
        ("imageHosts:\n  - a.org\n  - b.org\n", "imageHosts:\n  - a.org\n  - b.org\n"),  # all listed
    ],
)  # fmt: skip
def test_image_hosts_are_added_and_the_rest_is_kept(text, merged):
    assert writer.with_image_hosts(text, {"a.org", "b.org"}, Path("site.yaml")) == merged


def test_comments_and_blank_lines_after_the_image_hosts_are_kept():
    # the list ends at its last host; the lines after it up to the next key are the next key's
    # (a comment about it), not the list's: dropping them lost the author's text
    text = "imageHosts:\n  - a.org\n\n# the site's address:\nurl: https://x.org\n"
    merged = writer.with_image_hosts(text, {"b.org"}, Path("site.yaml"))
    assert merged == '\n# the site\'s address:\nurl: https://x.org\nimageHosts:\n  - "a.org"\n  - "b.org"\n'


def test_write_makes_a_new_dest_whole_and_writes_nothing_twice(tmp_path):
    image = tmp_path / "a.png"
    image.write_bytes(b"\x89PNG")
    dest = tmp_path / "dest"
    files = {"articles/x.md": "é\n".encode(), "site.yaml": b"title: T\n"}
    assert writer.write(dest, files, {"media/x/a.png": image}) == 3
    assert (dest / "articles/x.md").read_text() == "é\n" and (
        dest / "media/x/a.png"
    ).read_bytes() == b"\x89PNG"
    assert not (tmp_path / ".dest.moving-in").exists()  # the staging folder was renamed
    before = os.stat(dest / "site.yaml").st_mtime_ns
    assert writer.write(dest, files, {"media/x/a.png": image}) == 0  # byte for byte the same: untouched
    assert os.stat(dest / "site.yaml").st_mtime_ns == before
    assert writer.write(dest, {**files, "site.yaml": b"title: U\n"}, {}) == 1
    assert (dest / "site.yaml").read_bytes() == b"title: U\n"
    assert sorted(p.name for p in dest.rglob("*") if p.name.endswith(".tmp")) == []


def test_a_failed_write_leaves_no_new_dest(tmp_path):
    dest = tmp_path / "dest"
    with pytest.raises(FileNotFoundError):
        writer.write(dest, {"a.md": b"x"}, {"media/gone.png": tmp_path / "gone.png"})
    assert not dest.exists() and not (tmp_path / ".dest.moving-in").exists()


def test_one_move_into_a_dest_at_a_time(tmp_path):
    dest = tmp_path / "dest"
    with writer.move_lock(dest):
        lock = tmp_path / ".dest.moving-in.lock"
        assert lock.read_text().startswith(f"PID {os.getpid()} on ")
        with pytest.raises(
            writer.MoveRunning, match=rf"another move into {dest} is running \(PID {os.getpid()} "
        ):
            with writer.move_lock(dest):
                pass
    with writer.move_lock(dest):  # released: the next move goes on
        pass
