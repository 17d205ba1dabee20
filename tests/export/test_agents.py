"""Ready for agents on every host: robots.txt's Content-Signal and AI crawler groups, markdown by
content negotiation (with `Vary: Accept` and Link headers), the agent skills index, and the build's
checks of all three. Each host is its own server: the authoring server (`manage.py runserver`),
the preview (`manage.py preview`), nginx with deploy/nginx.conf and `wrangler dev` with
deploy/wrangler.json and deploy/worker.js."""

import hashlib
import json
import re
import shutil
import sys
from urllib.parse import quote, unquote

import pytest
from django.conf import settings

from pages import skills
from pages.negotiation import MARKDOWN_PAGE_PATH, STANDALONE_PAGE_PATH, prefers_markdown
from pages.views import ASSISTANTS, TRAINING_CRAWLERS
from portfolio.content.importer import import_content
from portfolio.export.verify import Verifier
from tests.contact.helpers import BROWSER_ACCEPT
from tests.content.helpers import assert_named_error
from tests.content_builder import SITE_URL, SITE_YAML, write_content
from tests.server import fetch, manage_py_server, server_process

from .conftest import on_workers, start_nginx
from .test_hosts import LATER_PAGES, PAGES, UNICODE_TAG, check_host, served_page

DEPLOY = settings.BASE_DIR / "deploy"
MARKDOWN = "text/markdown; charset=utf-8"
# The pages with a markdown form, in the standard content (and its later pages, test_hosts).
FORMS = ["/", "/projects", "/projects/alpha-one", "/articles", "/articles/unicode-post", "/stack", "/tags",
         "/tags/python", UNICODE_TAG]  # fmt: skip
LATER_FORMS = ["/projects/page/2", "/tags/python/page/2", UNICODE_TAG + "/page/2"]
# (Accept, whether markdown is answered): the same table for every host.
ACCEPTS = [
    ("text/markdown", True),
    ("TEXT/Markdown", True),
    ("text/markdown, text/html;q=0.9, */*;q=0.8", True),  # what coding agents send
    ("text/html;q=0.5, text/markdown", True),
    ("text/markdown;q=0.8, */*;q=0.5", True),
    ("text/markdown;q=0.75, text/*;q=0.7", True),
    ("text/markdown; charset=utf-8; q=0.9, text/html; q=0.85", True),
    ("text/markdown;q=0", False),  # a refusal
    ("text/markdown;q=0.0, text/html", False),
    ("text/html, text/markdown;q=0.9", False),
    ("text/markdown;q=0.5, text/html;q=0.5", False),  # a tie is the page's own form
    ("text/markdown;q=0.7, text/*;q=0.75", False),
    (BROWSER_ACCEPT, False),
    ("*/*", False),
    ("text/*", False),  # markdown is answered to a client that names it
    ("application/json", False),
    (None, False),
]


def form_file(site, path):
    """The markdown form's file of the page at `path`."""
    name = unquote(path).strip("/") or "index"
    return site / f"{name}.md"


def form_address(path):
    return "/index.md" if path == "/" else path + ".md"


def get(base, path, accept, method="GET"):
    return fetch(base + path, headers={"Accept": accept} if accept else {}, method=method)


def varies(headers):
    return "accept" in [
        v.strip().lower() for value in headers.get_all("Vary") or [] for v in value.split(",")
    ]


def check_negotiation(base, site, forms, *, static_host=True):
    """Every page of `forms` answers its markdown form's bytes to an Accept that prefers markdown,
    its HTML to the others, both with `Vary: Accept`; the HTML names the form in its Link."""
    for path in forms:
        status, headers, body = get(base, path, "text/markdown")
        assert (status, headers.get_all("Content-Type")) == (200, [MARKDOWN]), path
        assert body == form_file(site, path).read_bytes(), path
        assert varies(headers) and headers["X-Content-Type-Options"] == "nosniff", path
        assert headers.get_all("Link") == ['</.well-known/api-catalog>; rel="api-catalog"'], path
        if static_host:
            assert headers["Content-Security-Policy"], path
        status, headers, body = get(base, path, "text/markdown", "HEAD")
        assert (status, headers["Content-Type"], body) == (200, MARKDOWN, b""), path
        status, headers, body = get(base, path, BROWSER_ACCEPT)
        assert status == 200 and headers["Content-Type"].startswith("text/html"), path
        assert body == served_page(site, path), path
        assert varies(headers), path
        links = headers.get_all("Link")
        assert links and len(links) == 1, (path, links)
        assert links[0] == (
            f'<{form_address(path)}>; rel="alternate"; type="text/markdown", '
            '</.well-known/api-catalog>; rel="api-catalog"'
        ), path
    for accept, markdown in ACCEPTS:
        status, headers, body = get(base, "/projects/alpha-one", accept)
        expected = form_file(site, "/projects/alpha-one") if markdown else site / "projects/alpha-one.html"
        assert (status, body) == (200, expected.read_bytes()), accept
    # No markdown form: the page; no page: its 404, however asked.
    status, headers, _ = get(base, "/developers", "text/markdown")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert get(base, "/projects/no-such-project", "text/markdown")[0] == 404
    status, headers, body = get(base, "/projects/alpha-one.md", BROWSER_ACCEPT)  # the twin, as asked
    assert (status, headers["Content-Type"], body) == (
        200,
        MARKDOWN,
        (site / "projects/alpha-one.md").read_bytes(),
    )
    check_agent_files(base, site)


def check_agent_files(base, site):
    """robots.txt as built, and the skills index whose digest is its SKILL.md's as served."""
    status, headers, body = fetch(base + "/robots.txt")
    assert (status, body) == (200, (site / "robots.txt").read_bytes())
    status, headers, body = fetch(base + skills.INDEX_PATH)
    assert (status, headers["Content-Type"]) == (200, "application/json")
    assert headers["Access-Control-Allow-Origin"] == "*"
    index = json.loads(body)
    assert index["$schema"] == "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    (skill,) = index["skills"]
    assert skill["type"] == "skill-md" and skill["name"] == "portfolio-test"
    status, headers, skill_md = fetch(base + skill["url"])
    assert (status, headers["Content-Type"]) == (200, MARKDOWN)
    assert skill["digest"] == "sha256:" + hashlib.sha256(skill_md).hexdigest()
    front = re.match(r"---\nname: (.+)\ndescription: (.+)\n---\n", skill_md.decode())
    assert front and front[1] == skill["name"] and json.loads(front[2]) == skill["description"]


# --- the rule ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("accept", "markdown"), ACCEPTS)
def test_the_accept_rule(accept, markdown):
    assert prefers_markdown(accept) is markdown


def test_the_hosts_hold_the_same_page_expression():
    """deploy/worker.js and deploy/nginx.conf decide which addresses are pages with a markdown
    form, and which may be standalone pages with one, with pages/negotiation.py's expressions,
    copied."""
    for expression in (MARKDOWN_PAGE_PATH, STANDALONE_PAGE_PATH):
        assert expression.replace("/", r"\/") in (DEPLOY / "worker.js").read_text()
        assert f'"~{expression}"' in (DEPLOY / "nginx.conf").read_text()


# --- robots.txt and site.yaml's contentSignals ---------------------------------------------------


def robots(client):
    response = client.get("/robots.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    return response.content.decode()


def groups(text):
    """{user agent: its rule lines}."""
    found, agents, rules = {}, [], []
    for block in text.strip().split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        agents = [line.split(": ", 1)[1] for line in lines if line.startswith("User-agent: ")]
        rules = [line for line in lines if not line.startswith(("User-agent: ", "Sitemap: "))]
        found.update((agent, rules) for agent in agents)
    return found


def test_robots_txt_says_the_default_signals_and_refuses_training_crawlers(imported, client):
    text = robots(client)
    rules = groups(text)
    assert rules["*"] == ["Content-Signal: search=yes, ai-input=yes, ai-train=no", "Allow: /"]
    for agent in ["GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended"]:
        assert rules[agent] == ["Disallow: /"], agent
    for agent in ["OAI-SearchBot", "ChatGPT-User", "Claude-User", "Claude-SearchBot", "PerplexityBot"]:
        assert rules[agent] == ["Allow: /"], agent
    assert text.endswith(f"\nSitemap: {SITE_URL}/sitemap-index.xml\n")


def test_content_signals_from_site_yaml(imported, client, content_dir):
    signals = "contentSignals:\n  search: yes\n  ai-input: no\n  ai-train: yes\n"
    write_content(content_dir, {"site.yaml": SITE_YAML + signals})
    import_content(content_dir, workers=1)
    rules = groups(robots(client))
    assert rules["*"] == ["Content-Signal: search=yes, ai-input=no, ai-train=yes", "Allow: /"]
    assert not set(TRAINING_CRAWLERS) & set(rules), "ai-train: yes refuses no crawler"
    assert set(ASSISTANTS) <= set(rules)
    # Quoted words mean the same; a key left out keeps its default.
    write_content(content_dir, {"site.yaml": SITE_YAML + 'contentSignals: {ai-train: "no", search: "no"}\n'})
    import_content(content_dir, workers=1)
    assert groups(robots(client))["*"][0] == "Content-Signal: search=no, ai-input=yes, ai-train=no"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{ai-train: maybe}", "contentSignals: ai-train: expected yes or no; got 'maybe'"),
        (
            "{training: no}",
            "contentSignals: unknown signal 'training'; expected one of search, ai-input, ai-train",
        ),
        ("yes", "contentSignals: expected a mapping of search, ai-input, ai-train to yes or no; got true"),
    ],
)
def test_a_bad_content_signal_names_the_file_and_field(imported, content_dir, value, message):
    write_content(content_dir, {"site.yaml": SITE_YAML + f"contentSignals: {value}\n"})
    field, _, fragment = message.partition(": ")
    assert_named_error(content_dir, "site.yaml", field, fragment)


# --- the build's checks --------------------------------------------------------------------------


def verifier(site):
    files = {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()}
    return Verifier(SITE_URL, files, json.loads((site / "openapi.json").read_bytes()), [])


def test_the_build_checks_the_agent_surfaces(built_site):
    check = verifier(built_site)
    read = lambda path: (built_site / path).read_bytes()  # noqa: E731
    assert check.check_markdown_forms() == []
    assert check.check_robots(read("robots.txt").decode()) == []
    assert check.check_skills(read) == []
    # The markdown forms the routes write: one beside every page that has one.
    for path in [*FORMS, "/projects/beta_two", "/tags/intro"]:
        assert form_file(built_site, path).is_file(), path
    # A digest that is not the served file's, a missing form, a crawler let through: named.
    name = json.loads(read(skills.INDEX_PATH.lstrip("/")))["skills"][0]["name"]
    skill_path = f".well-known/agent-skills/{name}/SKILL.md"
    tampered = lambda path: read(path) + (b"\n" if path == skill_path else b"")  # noqa: E731
    (problem,) = check.check_skills(tampered)
    assert problem.startswith(f".well-known/agent-skills/index.json: {name}: digest 'sha256:")
    check.files.discard("tags/python.md")
    assert check.check_markdown_forms() == ["tags/python.html: no markdown form (tags/python.md)"]
    text = read("robots.txt").decode().replace("User-agent: CCBot\n", "")
    assert check.check_robots(text) == ["robots.txt: CCBot is not refused (Disallow: /) though ai-train=no"]


# --- every host ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def agent_site(built_site, tmp_path_factory):
    """The built site, with later pages of a list and of tags (copies of their first pages, and
    of their markdown forms)."""
    site = tmp_path_factory.mktemp("agents") / "site"
    shutil.copytree(built_site, site)
    for later, first in LATER_PAGES.items():
        (site / later).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(site / first, site / later)
        shutil.copyfile(site / first.replace(".html", ".md"), site / later.replace(".html", ".md"))
    return site


def test_the_authoring_server(agent_site, content_dir, tmp_path):
    env = {
        "CONTENT_DIR": str(content_dir),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}",
        "DEBUG": "",
    }
    with manage_py_server(["runserver", "--noreload", "127.0.0.1:{port}"], env) as base:
        # Not the tag in another script: runserver answers its page 404 with or without this (the
        # preview and the hosts are where such an address is tested).
        check_negotiation(
            base, agent_site, [path for path in FORMS if path != UNICODE_TAG], static_host=False
        )


def test_the_preview(agent_site, tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": SITE_URL}
    with server_process(
        [sys.executable, "manage.py", "preview", str(agent_site), "--port", "{port}"], env
    ) as base:
        check_negotiation(base, agent_site, FORMS + LATER_FORMS)


def test_nginx(agent_site, background, tmp_path):
    base = start_nginx(agent_site, background, tmp_path)
    check_negotiation(base, agent_site, FORMS + LATER_FORMS)


def test_cloudflare_workers_with_the_project_config(agent_site, tmp_path, imported):
    """`wrangler dev` with deploy/wrangler.json (its assets folder the built site) and the Worker:
    the site behaves as on Pages (check_host, which reads the imported site's identity) and
    negotiates."""

    def check(base):
        check_negotiation(base, agent_site, FORMS + LATER_FORMS)
        check_host(base, agent_site, json_404=True)
        for name in ["_headers", "_redirects", "_redirects.nginx.conf", ".assetsignore"]:
            assert fetch(f"{base}/{quote(name)}")[0] == 404, name

    on_workers(agent_site, tmp_path, check)


def test_every_page_path_is_in_the_tables():
    """The pages test_hosts checks that have a markdown form are the ones here."""
    pattern = re.compile(MARKDOWN_PAGE_PATH)
    assert sorted(p for p in PAGES if pattern.match(p)) == sorted(FORMS + LATER_FORMS)
