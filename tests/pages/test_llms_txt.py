"""/llms.txt read by the llms-txt package's parser."""

from llms_txt import parse_llms_file

from tests.content_builder import SITE_URL


def parse(get):
    response, body = get("/llms.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    return parse_llms_file(body)


def test_title_summary_and_usage_paragraph(get):
    llms = parse(get)
    assert llms.title == "Test Portfolio"
    assert llms.summary == "A portfolio used by the test suite."
    assert f"{SITE_URL}/api/v1" in llms.info and ".json" in llms.info
    assert "no API keys" in llms.info and "no pagination" in llms.info and "no webhooks" in llms.info


def test_sections_and_links(get):
    sections = parse(get).sections
    assert list(sections) == ["Pages", "Machine URLs", "Projects", "Articles", "Tags"]
    pages = {link.title: link.url for link in sections["Pages"]}
    assert pages == {
        "Home": f"{SITE_URL}/",
        "Projects": f"{SITE_URL}/projects",
        "Articles": f"{SITE_URL}/articles",
        "Stack": f"{SITE_URL}/stack",
        "Contact": f"{SITE_URL}/contact",
        "Developers": f"{SITE_URL}/developers",
        "Tags": f"{SITE_URL}/tags",
    }
    machine = [link.url for link in sections["Machine URLs"]]
    for path in ["/api/v1.json", "/openapi.json", "/feed.xml", "/sitemap-index.xml", "/developers",
                 "/llms-full.txt", "/.well-known/api-catalog"]:  # fmt: skip
        assert SITE_URL + path in machine
    assert "extensionless" in sections["Machine URLs"][0].desc


def test_every_project_and_published_article_newest_first(get):
    sections = parse(get).sections
    assert [link.url for link in sections["Projects"]] == [
        f"{SITE_URL}/projects/{slug}.md" for slug in ["alpha-one", "gamma", "beta_two", "delta"]
    ]  # the markdown twins, as the llms.txt proposal describes; the page and the JSON follow
    assert [link.url for link in sections["Articles"]] == [
        f"{SITE_URL}/articles/{slug}.md" for slug in ["unicode-post", "crlf-post", "same-day", "first-post"]
    ]
    first = sections["Articles"][0]
    assert first.title == "Ünïcode ✓ 日本語"
    assert first.desc == (
        f"An article description (page: {SITE_URL}/articles/unicode-post; "
        f"JSON: {SITE_URL}/api/v1/articles/unicode-post.json)"
    )


def test_awkward_titles_keep_each_link_on_one_parsable_line(get):
    from portfolio.content.models import Project

    Project.objects.filter(slug="delta").update(title="Delta [beta]\nsecond line", tagline="multi\n  line")
    links = {link.url: link for link in parse(get).sections["Projects"]}
    delta = links[f"{SITE_URL}/projects/delta.md"]
    assert delta.title == "Delta (beta) second line"
    assert delta.desc.startswith("multi line (page: ")
