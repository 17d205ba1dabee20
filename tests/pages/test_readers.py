"""site.yaml's `comments` (giscus) and `analytics` (one provider): off by default; asked for, the
pages carry them and the Content-Security-Policy grows by exactly their origins, on the
authoring server and in every host's files (pages/security.py, portfolio/export/hosts.py)."""

import re

import pytest

from pages.security import ARTICLE_PAGE
from portfolio.content.importer import import_content
from portfolio.content.rules import ContentInvalid
from portfolio.export import hosts
from tests.content_builder import SITE_YAML, write_content
from tests.header_rules import headers_for

GISCUS = (
    "comments:\n  giscus: {repo: owner/name, repoId: R_kgDOabc, category: Comments, "
    "categoryId: DIC_kwDOabc4Cxyz, mapping: pathname}\n"
)


def directives(policy):
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def csp(client, path):
    return client.get(path)["Content-Security-Policy"]


def with_site(imported, extra):
    write_content(imported, {"site.yaml": SITE_YAML + extra})
    import_content(imported, workers=1)


def test_nothing_by_default(get, client):
    _, body = get("/articles/first-post")
    assert "giscus" not in body and "data-comments" not in body and "comments.js" not in body
    for name in ("plausible", "umami", "goatcounter", "cloudflareinsights"):
        assert name not in body
    assert "frame-src" not in csp(client, "/articles/first-post")
    assert [rule for rule, _ in hosts.header_rules() if "Content-Security-Policy" in str(_)] == ["/*"]


def test_comments_load_on_request_only(get, imported, client):
    with_site(imported, GISCUS)
    _, body = get("/articles/first-post")
    section = body.split('<section class="comments"')[1].split("</section>")[0]
    assert 'data-repo="owner/name"' in section and 'data-mapping="pathname"' in section
    assert "<button" in section and "Show the comments" in section
    # No script, frame, stylesheet, preconnect or prefetch of giscus before the click.
    assert not re.search(r"<(script|link|iframe)[^>]*giscus\.app", body)
    assert re.search(r"pages/comments(\.[0-9a-f]+)?\.js", body)
    _, other = get("/projects/alpha-one")
    assert "data-comments" not in other and "pages/comments" not in other


def test_comments_widen_the_articles_policy_alone(imported, client):
    before = directives(csp(client, "/articles/first-post"))
    with_site(imported, GISCUS)
    article = directives(csp(client, "/articles/first-post"))
    assert article["script-src"] == before["script-src"] + " https://giscus.app"
    assert article["style-src"] == "'self' https://giscus.app"
    assert article["frame-src"] == "'self' https://giscus.app"
    wider = ("script-src", "style-src", "frame-src")
    assert {k: v for k, v in article.items() if k not in wider} == {
        k: v for k, v in before.items() if k not in wider
    }
    for path in ("/", "/articles", "/projects/alpha-one", "/tags/python", "/stack", "/search"):
        assert directives(csp(client, path)) == before, path


OTHER_PATHS = ["/", "/articles", "/articles/page/2", "/projects/alpha-one", "/tags/python", "/stack",
               "/series/x", "/api/v1/articles/first-post.json", "/static/pages/site.css", "/404",
               "/tags/python/page/2", "/.well-known/agent-skills/index.json", "/media/a/b.png"]  # fmt: skip


def test_comments_in_the_hosts_files(imported):
    with_site(imported, GISCUS)
    article = "giscus.app"
    # Every matching rule's policy applies (both hosts): an article's page gets only the wide one,
    # every other page the site's too, so the narrower.
    for netlify in (False, True):
        found = headers_for("/articles/first-post", netlify=netlify)["content-security-policy"]
        assert len(found) == 1 and article in found[0]
        for path in OTHER_PATHS:
            policies = headers_for(path, netlify=netlify)["content-security-policy"]
            assert any(article not in policy for policy in policies), (path, policies)
    nginx = hosts.nginx_redirects([])
    assert 'set $portfolio_csp "default-src' in nginx
    assert re.search(
        rf'if \(\$uri ~ "{re.escape(ARTICLE_PAGE.pattern)}"\) \{{ set \$portfolio_csp "[^"]*giscus\.app',
        nginx,
    )


@pytest.mark.parametrize(
    "extra, expected",
    [
        (GISCUS.replace("owner/name", "owner"), "site.yaml: comments: giscus: repo: expected owner/name"),
        (GISCUS.replace("mapping: pathname", "mapping: issue"),
         "site.yaml: comments: giscus: mapping: expected one of"),
        (GISCUS.replace("repoId: R_kgDOabc, ", ""),
         "site.yaml: comments: giscus: repoId: required field is missing"),
        ("comments:\n  disqus: {site: x}\n", "site.yaml: comments: expected {giscus:"),
        ("analytics:\n  plausible: {}\n",
         "site.yaml: analytics: plausible: domain: required field is missing"),
        ("analytics:\n  umami: {websiteId: abc}\n",
         "site.yaml: analytics: umami: src: required field is missing"),
        ("analytics:\n  umami: {websiteId: abc, src: 'http://x.example/s.js'}\n",
         "site.yaml: analytics: umami: src: expected an https:// address"),
        ("analytics:\n  plausible: {domain: a.example}\n  goatcounter: {code: x}\n",
         "site.yaml: analytics: expected one provider of"),
        ("analytics:\n  matomo: {id: 1}\n", "site.yaml: analytics: expected one provider of"),
    ],
)  # fmt: skip
def test_malformed_settings_name_site_yaml_and_the_field(imported, extra, expected):
    write_content(imported, {"site.yaml": SITE_YAML + extra})
    with pytest.raises(ContentInvalid) as failed:
        import_content(imported, workers=1)
    assert expected in str(failed.value)


ANALYTICS = [
    (
        "plausible: {domain: portfolio.test}",
        '<script src="https://plausible.io/js/script.js" data-domain="portfolio.test" defer></script>',
        ["https://plausible.io"],
        ["https://plausible.io"],
    ),
    (
        "plausible: {domain: portfolio.test, src: 'https://stats.example.org/js/script.js'}",
        '<script src="https://stats.example.org/js/script.js" data-domain="portfolio.test" defer></script>',
        ["https://stats.example.org"],
        ["https://stats.example.org"],
    ),
    (
        "umami: {websiteId: 94db1cb1-74f4, src: 'https://cloud.umami.is/script.js'}",
        '<script src="https://cloud.umami.is/script.js" data-website-id="94db1cb1-74f4" defer></script>',
        ["https://cloud.umami.is"],
        ["https://cloud.umami.is"],
    ),
    (
        "goatcounter: {code: mysite}",
        '<script src="https://gc.zgo.at/count.js" '
        'data-goatcounter="https://mysite.goatcounter.com/count" defer></script>',
        ["https://gc.zgo.at"],
        ["https://mysite.goatcounter.com"],
    ),
    (
        "cloudflare: {token: abc123}",
        '<script src="https://static.cloudflareinsights.com/beacon.min.js" '
        'data-cf-beacon="{&#34;token&#34;: &#34;abc123&#34;}" defer></script>',
        ["https://static.cloudflareinsights.com"],
        ["https://cloudflareinsights.com"],
    ),
]


@pytest.mark.parametrize("setting, snippet, scripts, connects", ANALYTICS)
def test_analytics_on_every_page_and_its_origins_alone(imported, client, setting, snippet, scripts, connects):
    before = directives(csp(client, "/"))
    with_site(imported, f"analytics:\n  {setting}\n")
    for path in ("/", "/articles/first-post", "/projects/alpha-one", "/tags/python", "/search", "/404"):
        response = client.get(path)
        assert snippet in response.content.decode(), path
        after = directives(response["Content-Security-Policy"])
        assert after["script-src"] == " ".join([before["script-src"], *scripts]), path
        assert after["connect-src"] == " ".join([before["connect-src"], *connects]), path
        same = ("script-src", "connect-src")
        assert {k: v for k, v in after.items() if k not in same} == {
            k: v for k, v in before.items() if k not in same
        }
    [(pattern, headers)] = [rule for rule in hosts.header_rules() if "Content-Security-Policy" in str(rule)]
    assert pattern == "/*" and all(origin in str(headers) for origin in scripts + connects)
    assert all(origin in hosts.nginx_redirects([]) for origin in scripts + connects)


def test_comments_on_a_translated_article_too(imported, client):
    """A translation's article page shows the comments as its original's does, so its policy
    allows giscus as theirs does: on the authoring server and in every host's files; the
    language's other pages keep the site's."""
    from tests.languages.content import add_languages

    add_languages(imported)
    with_site(imported, GISCUS + "languages:\n  - code: en\n  - code: fr\n  - code: fa\n  - code: ja\n")
    page = client.get("/fr/articles/first-post")
    assert 'class="comments"' in page.content.decode() and "giscus.app" in page["Content-Security-Policy"]
    assert "giscus.app" not in csp(client, "/fr/articles")
    rules = hosts.header_rules(["/about", "/fr/about"], ["fr", "fa", "ja"])
    for netlify in (False, True):
        found = headers_for("/fr/articles/first-post", rules, netlify=netlify)["content-security-policy"]
        assert len(found) == 1 and "giscus.app" in found[0]
        for path in ("/fr/", "/fr/articles", "/fr/articles/page/2", "/fr/projects/alpha-one", "/fr/about",
                     "/fa/tags/x", "/fa/tags/x/page/2", "/ja/feed.xml", "/fr/stack"):  # fmt: skip
            policies = headers_for(path, rules, netlify=netlify)["content-security-policy"]
            assert any("giscus.app" not in policy for policy in policies), (path, policies)
    nginx_if = re.search(r'if \(\$uri ~ "([^"]+)"\)', hosts.nginx_redirects([]))[1]
    assert re.match(nginx_if, "/fr/articles/first-post") and not re.match(nginx_if, "/fr/projects/alpha-one")
