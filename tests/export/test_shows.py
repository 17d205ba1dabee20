"""What a file depends on is what its route declares its pages show (portfolio/shows.py)."""

import pytest

from portfolio.export.plan import Keys
from portfolio.export.state import BuildFailed
from portfolio.shows import WHOLE
from tests.content_builder import article, write_content

from .conftest import tree


def test_a_new_route_that_shows_bodies_renders_again_when_a_body_changes(
    site, content_dir, settings, tmp_path
):
    settings.ROOT_URLCONF = "tests.export.urls_with_bodies"
    out = tmp_path / "site"
    site()
    assert "Article body." in (out / "bodies.txt").read_text()
    path = content_dir / "articles" / "first-post.md"
    path.write_text(path.read_text().replace("Article body.", "A new body."))
    result = site()
    assert result.carried > 0, "an edit: the pages that show no body are carried over"
    assert "A new body." in (out / "bodies.txt").read_text()
    assert tree(out)["bodies.txt"] == tree(site(tmp_path / "full", full=True).out_dir)["bodies.txt"]
    # The declaration decides, not the view: the same view declared as showing the lists alone
    # keeps the file of the previous build (which is why every route must declare what it shows).
    assert "A new body." not in (out / "stale.txt").read_text()
    # A new article is in the lists: both render again.
    write_content(
        content_dir, {"articles/notes.md": article("Notes", date="2026-08-08", body="Fresh notes.\n")}
    )
    site()
    assert "Fresh notes." in (out / "bodies.txt").read_text()
    assert "Fresh notes." in (out / "stale.txt").read_text()


def test_a_route_that_declares_nothing_fails_the_build_naming_it(site, settings, tmp_path):
    site()
    before = tree(tmp_path / "site")
    settings.ROOT_URLCONF = "tests.export.urls_undeclared"
    with pytest.raises(BuildFailed) as failed:
        site()
    assert failed.value.problems == [
        "route undeclared (undeclared.txt): declares no `shows`, what its pages show "
        "(make it with portfolio.shows.distill_path)",
        f"route misnamed (misnamed.txt): shows 'body', which is none of {sorted(WHOLE)}",
    ]
    assert tree(tmp_path / "site") == before


def test_the_plan_hashes_every_part_a_route_may_show_whole(site):
    site()  # the content imported
    assert set(WHOLE) <= set(Keys().shows)
