"""The authoring server's settings never reach a build: with DEBUG=1 and SHOW_DRAFTS=1 in the
environment, the frozen site has no draft anywhere and no live-reload script or file."""

from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE, write_content

from .conftest import distill_local, tree


def test_a_build_ignores_debug_and_show_drafts(tmp_path, built_site):
    content = write_content(tmp_path / "content")
    env = {"DEBUG": "1", "SHOW_DRAFTS": "1"}
    result = distill_local(content, tmp_path / "site", tmp_path / "db.sqlite3", "--workers", "1", env=env)
    assert result.returncode == 0, result.stderr
    files = tree(tmp_path / "site")
    assert files == tree(built_site), "the same bytes as a build without those variables"
    assert not any(DRAFT_SLUG in name for name in files)
    for name, data in files.items():
        assert DRAFT_SLUG.encode() not in data and DRAFT_TITLE.encode() not in data, name
        assert b"browser-reload" not in data and b"__reload__" not in data, name
