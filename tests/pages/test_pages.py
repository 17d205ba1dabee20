"""Each human page renders with its key content, in the content's order."""

import pytest

from portfolio.content.models import Article, Project
from tests.content_builder import DRAFT_SLUG, SITE_URL


def in_order(body, *texts):
    positions = [body.index(text) for text in texts]
    return positions == sorted(positions)


def test_base_layout_on_every_page(get):
    for path in ["/", "/projects", "/projects/alpha-one", "/articles", "/articles/same-day", "/stack"]:
        _, body = get(path)
        assert '<html lang="en">' in body
        assert '<a class="skip-link" href="#main">' in body and '<main id="main"' in body
        assert '<nav aria-label="Main">' in body and 'href="/contact"' in body
        assert f'<link rel="canonical" href="{SITE_URL}{path}">' in body
        assert f'<meta property="og:url" content="{SITE_URL}{path}">' in body
        assert 'type="application/atom+xml" title="Test Portfolio" href="/feed.xml"' in body
        assert 'type="application/json"' in body
        assert body.count("<h1") >= 1


def test_home_shows_featured_projects_and_latest_articles(get):
    _, body = get("/")
    assert "<title>Test Portfolio</title>" in body
    assert 'content="A portfolio used by the test suite."' in body
    featured = body.split('id="featured-title"')[1].split('id="latest-title"')[0]
    assert "Alpha One" in featured and "Delta" not in featured
    latest = body.split('id="latest-title"')[1]
    assert in_order(latest, "Ünïcode ✓ 日本語", "CRLF post", "Same day published", "First post")
    assert 'href="/api/v1.json">JSON API</a>' in body
    assert "Testing everything" in body  # the stack's current focus


def test_project_list_newest_first_then_slug(get):
    _, body = get("/projects")
    assert in_order(body, "Alpha One", "Gämma ✓ ünïcode", "Beta Two", "Delta")
    assert 'href="/projects/beta_two"' in body
    assert '<link rel="alternate" type="application/json" href="/api/v1/projects.json">' in body


def test_project_detail(get):
    _, body = get("/projects/alpha-one")
    assert "<title>Alpha One · Test Portfolio</title>" in body
    assert 'href="https://github.com/example/project"' in body
    assert 'class="status status-active"' in body
    case_study = body.split('id="case-study-title"')[1]
    assert in_order(case_study, "zeta", "last letter first", "alpha", "first letter second")
    assert '<div class="highlight"><pre tabindex="0">' in body and "<table>" in body  # the stored body_html
    assert '<link rel="alternate" type="application/json" href="/api/v1/projects/alpha-one.json">' in body


def test_project_without_case_study_has_no_table(get):
    _, body = get("/projects/beta_two")
    assert "Case study" not in body
    assert 'class="status status-reference"' in body


def test_pages_show_the_html_stored_at_import(get):
    Project.objects.filter(slug="delta").update(body_html="<p>stored html marker</p>")
    Article.objects.filter(slug="first-post").update(body_html="<p>stored article marker</p>")
    assert "stored html marker" in get("/projects/delta")[1]
    assert "stored article marker" in get("/articles/first-post")[1]


def test_article_list_newest_first_with_tags(get):
    _, body = get("/articles")
    assert in_order(body, "Ünïcode ✓ 日本語", "CRLF post", "Same day published", "First post")
    assert '<li><a href="/tags/intro">intro</a></li><li><a href="/tags/meta">meta</a></li>' in body
    assert '<link rel="alternate" type="application/json" href="/api/v1/articles.json">' in body


def test_article_detail(get):
    _, body = get("/articles/first-post")
    assert "<title>First post · Test Portfolio</title>" in body
    assert '<meta name="description" content="An article description">' in body
    assert '<time datetime="2025-01-10">' in body
    assert '<a href="/tags/intro">intro</a>' in body
    assert "Article body." in body
    assert '<meta property="og:type" content="article">' in body


def test_stack_shows_models_and_daily_drivers_with_status(get):
    _, body = get("/stack")
    assert "Testing everything" in body and 'datetime="2026-10-01"' in body
    assert '<a href="https://models.example/hosted">Hosted</a>' in body
    assert "Local" in body and "status-subscription" in body and "status-local" in body
    assert '<a href="https://editor.example">Editor</a>' in body
    drivers = body.split('id="drivers-title"')[1]
    assert in_order(drivers, "Editor", "status-daily", "Agent", "status-exploring")
    assert '<link rel="alternate" type="application/json" href="/api/v1/stack.json">' in body


def test_developers_documents_every_surface_with_real_curl_examples(get, settings):
    settings.SITE_URL = "https://example.org"
    _, body = get("/developers")
    surfaces = ["/api/v1", "/openapi.json", "/llms.txt", "/feed.xml", "/sitemap-index.xml", "/developers",
                "/llms-full.txt", "/projects/{slug}.md", "/articles/{slug}.md",
                "/.well-known/api-catalog"]  # fmt: skip
    for surface in surfaces:
        assert f"<code>{surface}</code>" in body
    assert "curl -s https://example.org/articles/unicode-post.md" in body
    assert 'rel="api-catalog"' in body and 'rel="service-desc"' in body
    assert "curl -s https://example.org/api/v1.json" in body
    assert "curl -s https://example.org/api/v1/projects/alpha-one.json" in body
    assert "curl -s https://example.org/api/v1/articles/unicode-post.json" in body
    assert "portfolio.test" not in body
    promises = ["No keys", "No pagination", "No webhooks", "out of scope for integrations", "/api/contact"]
    for promise in promises:
        assert promise in body
    assert "only where the host rewrites them" in body and ".json</code> paths always work" in body


@pytest.mark.parametrize(
    "path", ["/404", "/no-such-page", "/projects/no-such-project", "/articles/secret-draft"]
)
def test_not_found_page(get, path):
    response, body = get(path, status=404)
    assert "Page not found" in body and '<nav aria-label="Main">' in body
    assert 'rel="canonical"' not in body and "noindex" in body


def test_lists_do_not_grow_queries_with_content(get, django_assert_max_num_queries):
    # The context processors' site query and the header's standalone pages (nav: true), plus one
    # query per list (no per-item queries) and, for /projects, /articles and a tag's page, one
    # count for their pager; llms.txt also reads the site and the items' dates and sizes to count
    # the parts of llms-full.txt, and lists the standalone pages. A tag's page reads its tag, the
    # page of its index, then the page's projects and articles.
    pages = [("/", 5), ("/projects", 4), ("/articles", 4), ("/stack", 5), ("/llms.txt", 8), ("/tags", 3),
             ("/tags/python", 7), ("/tags/python/feed.xml", 5)]  # fmt: skip
    for path, queries in pages:
        with django_assert_max_num_queries(queries):
            get(path)


def test_articles_link_to_their_published_neighbours(get):
    # Newest first: unicode-post, crlf-post, same-day, (secret-draft: a draft), first-post.
    pagers = {}
    for slug in ["unicode-post", "crlf-post", "same-day", "first-post"]:
        _, body = get(f"/articles/{slug}")
        assert DRAFT_SLUG not in body, slug
        pagers[slug] = body.split('<nav class="pager" aria-label="More articles">')[1].split("</nav>")[0]
    crlf = pagers["crlf-post"]
    assert 'href="/articles/same-day" rel="prev"><span>Previous</span> Same day published</a>' in crlf
    assert 'href="/articles/unicode-post" rel="next"><span>Next</span> Ünïcode ✓ 日本語</a>' in crlf
    # The draft sorts between same-day and first-post: it is skipped, never linked.
    assert 'href="/articles/first-post" rel="prev"' in pagers["same-day"]
    assert 'href="/articles/same-day" rel="next"' in pagers["first-post"]
    assert 'rel="next"' not in pagers["unicode-post"] and 'rel="prev"' not in pagers["first-post"]


def test_article_shows_its_reading_time(get):
    assert '<span class="reading-time">1 min read</span>' in get("/articles/first-post")[1]
    # 600 words at 230 a minute, counted without the markup: 2.6 minutes, shown as 3.
    Article.objects.filter(slug="first-post").update(body_html="<p><em>word</em> word</p>\n" * 300)
    assert '<span class="reading-time">3 min read</span>' in get("/articles/first-post")[1]
