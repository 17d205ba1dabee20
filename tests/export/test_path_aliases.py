"""Absolute-path aliases against a real build: no alias can take an address the build writes, and
nginx's include holds each old path as nginx compares it (decoded). Their 301s on every host are
checked with the other old addresses (tests/content_builder.py's MOVED, in test_hosts.py and
test_preview.py)."""

from portfolio.content.aliases import shadowed
from portfolio.export.hosts import NGINX_REDIRECTS


def test_every_top_level_name_of_a_build_is_shadowed(built_site):
    names = sorted(entry.name for entry in built_site.iterdir())
    assert "pagefind" in names and "_redirects" in names and NGINX_REDIRECTS in names
    for entry in built_site.iterdir():
        paths = ["/" + entry.name, "/" + entry.name + "/old"] if entry.is_dir() else ["/" + entry.name]
        for path in paths:
            assert shadowed(path), path
    assert shadowed("/posts/old-title/") is None


def test_nginx_compares_decoded_paths(built_site):
    include = (built_site / NGINX_REDIRECTS).read_text()
    quoted = 'location = "/2014/05/12/café;old.html" { return 301 /articles/unicode-post$is_args$args; }'
    assert quoted in include
    assert "location = /work/alpha-project/ { return 301 /projects/alpha-one$is_args$args; }" in include
    assert "/drafts/secret" not in include  # a draft's aliases move nothing
