"""Every language the owner writes in (issue 53): site.yaml's `languages`, translations as files
beside their originals, the other languages' pages under /<lang>/, hreflang and the switcher,
feeds and sitemaps per language, and a draft translation nowhere."""

import re
import xml.etree.ElementTree as ET

import pytest

from portfolio.content.aliases import moves
from portfolio.content.importer import import_content
from portfolio.content.languages import native_name
from portfolio.content.models import Translation
from portfolio.content.rules import ContentInvalid

from .content import write_multilingual

BASE = "https://portfolio.test"


@pytest.fixture
def multilingual(db, tmp_path, settings):
    settings.SITE_URL = ""
    folder = write_multilingual(tmp_path / "content")
    import_content(folder, workers=1)
    return folder


def problems(folder):
    with pytest.raises(ContentInvalid) as caught:
        import_content(folder, workers=1)
    return [str(error) for error in caught.value.errors]


def html_root(response):
    return re.search(r"<html[^>]*>", response.content.decode())[0]


def alternates(response):
    return re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', response.content.decode())


def test_translations_are_imported_as_rows_of_their_original(multilingual):
    rows = Translation.objects.values_list("kind", "slug", "language", "draft")
    assert set(rows) == {
        ("articles", "first-post", "fr", False),
        ("articles", "first-post", "fa", False),
        ("articles", "first-post", "ja", False),
        ("articles", "same-day", "fr", True),  # draft: true
        ("articles", "crlf-post", "fr", True),  # dated after the build: held back
        ("projects", "alpha-one", "fr", False),
        ("projects", "alpha-one", "fa", False),
        ("pages", "about", "fr", False),
    }


def test_a_language_not_listed_is_an_error_naming_the_file_and_the_language(multilingual):
    (multilingual / "articles/first-post.de.md").write_text("---\ntitle: Erster\n---\nText.\n")
    found = problems(multilingual)
    assert any(
        "articles/first-post.de.md" in p and "language" in p and "de is not one of" in p for p in found
    )


def test_a_translation_without_its_original_is_an_error_naming_the_missing_original(multilingual):
    (multilingual / "articles/nowhere.fr.md").write_text("---\ntitle: Nulle part\n---\nTexte.\n")
    found = problems(multilingual)
    assert any(
        "articles/nowhere.fr.md" in p and "articles/nowhere.md, which does not exist" in p for p in found
    )


def test_deleting_an_original_fails_while_its_translation_remains(multilingual):
    (multilingual / "pages/about.md").unlink()
    found = problems(multilingual)
    assert any(
        "pages/about.fr.md: original" in p and "pages/about.md, which does not exist" in p for p in found
    )


def test_a_translation_in_the_default_language_is_an_error(multilingual):
    (multilingual / "articles/first-post.en.md").write_text("---\ntitle: First\n---\nText.\n")
    assert any("default language" in p for p in problems(multilingual))


def test_a_language_code_is_listed_once_and_written_lowercase(multilingual):
    site = multilingual / "site.yaml"
    text = site.read_text(encoding="utf-8")
    site.write_text(text + "  - code: fr\n", encoding="utf-8")
    assert "site.yaml: languages: fr is listed more than once" in problems(multilingual)
    site.write_text(text.replace("code: ja", "code: JA"), encoding="utf-8")
    found = problems(multilingual)
    assert any(p.startswith("site.yaml: languages[3].code: expected a language code") for p in found)


@pytest.mark.parametrize(
    ("rel", "line"),
    [
        ("articles/first-post.fr.md", 'image: "alpha/cover.png"'),
        ("articles/first-post.fr.md", 'series: "Une série"'),
        ("projects/alpha-one.fr.md", 'github: "https://github.com/example/autre"'),
        ("pages/about.fr.md", "nav: true"),
        ("stack.fr.yaml", "theme: dark"),
    ],
)
def test_a_translation_writes_only_what_it_translates(multilingual, rel, line):
    """The rest is its original's (content-format.md, Languages): a field of the original's in a
    translation is an unknown key, named with its file."""
    path = multilingual / rel
    text = path.read_text(encoding="utf-8")
    key = line.split(":")[0]
    if rel.endswith(".md"):
        path.write_text(text.replace("---\n", f"---\n{line}\n", 1), encoding="utf-8")
    else:
        path.write_text(f"{text}{line}\n", encoding="utf-8")
    assert any(p.startswith(f"{rel}: {key}: unknown key") for p in problems(multilingual))


def test_without_languages_a_translation_file_is_an_error(db, tmp_path, settings):
    from tests.content_builder import write_content

    folder = write_content(tmp_path / "content")
    (folder / "articles/first-post.fr.md").write_text("---\ntitle: Premier\n---\nTexte.\n")
    found = problems(folder)
    assert any("site.yaml lists no languages" in p for p in found)


@pytest.mark.parametrize(
    ("path", "lang", "rtl"),
    [
        ("/", "en", False),
        ("/articles/first-post", "en", False),
        ("/fr/", "fr", False),
        ("/fr/articles/first-post", "fr", False),
        ("/fa/articles/first-post", "fa", True),
        ("/ja/articles/first-post", "ja", False),
        ("/fa/projects", "fa", True),
        ("/ja/projects", "ja", False),
    ],
)
def test_every_page_says_its_language_and_direction(multilingual, client, path, lang, rtl):
    response = client.get(path)
    assert response.status_code == 200
    expected = f'<html lang="{lang}" dir="rtl">' if rtl else f'<html lang="{lang}">'
    assert html_root(response) == expected


def test_a_translation_shows_what_it_writes_and_the_rest_from_its_original(multilingual, client):
    page = client.get("/fr/articles/first-post").content.decode()
    assert "<h1>Premier article</h1>" in page
    assert "Le corps en <strong>français</strong>." in page
    # Its links lead to the translations where there are some (same-day's French one is a draft).
    assert '<a href="/fr/projects/alpha-one">le projet</a>' in page
    assert '<a href="/articles/same-day">un autre</a>' in page
    assert 'href="/fr/tags/introduction"' in page  # its own tags, that language's tag pages
    assert "2025-01-10" in page  # its original's date
    project = client.get("/fr/projects/alpha-one").content.decode()
    assert "Alpha Un" in project and "Une accroche" in project
    assert "https://github.com/example/project" in project  # the original's


def test_hreflang_alternates_are_absolute_reciprocal_and_name_x_default(multilingual, client):
    expected = [
        ("en", f"{BASE}/articles/first-post"),
        ("fr", f"{BASE}/fr/articles/first-post"),
        ("fa", f"{BASE}/fa/articles/first-post"),
        ("ja", f"{BASE}/ja/articles/first-post"),
        ("x-default", f"{BASE}/articles/first-post"),
    ]
    for path in ["/articles/first-post", "/fr/articles/first-post", "/fa/articles/first-post"]:
        assert alternates(client.get(path)) == expected
    # The project has no Japanese translation: no ja alternate.
    assert [code for code, _ in alternates(client.get("/fr/projects/alpha-one"))] == [
        "en",
        "fr",
        "fa",
        "x-default",
    ]


def test_a_tag_in_another_script_is_linked_once_encoded(multilingual, client):
    # "méta" in French and Japanese: each version's address percent-encoded once, as reverse()
    # gives it (a second time, "%25C3%25A9", it is an address nobody answers).
    path = multilingual / "articles/first-post.ja.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("title:", "tags: [méta]\ntitle:", 1), encoding="utf-8"
    )
    import_content(multilingual, workers=1)
    page = client.get("/fr/tags/m%C3%A9ta").content.decode()
    expected = [("fr", f"{BASE}/fr/tags/m%C3%A9ta"), ("ja", f"{BASE}/ja/tags/m%C3%A9ta")]
    assert (
        alternates(client.get("/ja/tags/m%C3%A9ta"))
        == alternates(client.get("/fr/tags/m%C3%A9ta"))
        == expected
    )
    switcher = re.search(r'<nav class="language-switcher".*?</nav>', page, re.S)[0]
    links = dict((code, href) for href, code in re.findall(r'href="([^"]+)" hreflang="([^"]+)"', switcher))
    assert links["ja"] == "/ja/tags/m%C3%A9ta" and links["fr"] == "/fr/tags/m%C3%A9ta"
    for href in [*links.values(), *(address.removeprefix(BASE) for _, address in expected)]:
        assert client.get(href).status_code == 200, href


def test_the_header_links_a_pages_translation_in_its_language(multilingual, client):
    about = multilingual / "pages/about.md"
    about.write_text(about.read_text().replace("title:", "nav: true\ntitle:", 1))
    import_content(multilingual, workers=1)

    def nav_links(path):
        header = re.search(r'<nav aria-label="[^"]+">.*?</nav>', client.get(path).content.decode(), re.S)[0]
        return re.findall(r'<li><a href="(/[^"]*about)"([^>]*)>([^<]+)</a>', header)

    assert nav_links("/") == [("/about", "", "About")]
    assert nav_links("/fr/") == [("/fr/about", "", "À propos")]
    assert nav_links("/fr/about") == [("/fr/about", ' aria-current="page"', "À propos")]
    # Persian has none: the default's page, marked as English (read left to right).
    assert nav_links("/fa/") == [("/about", ' lang="en" dir="ltr"', "About")]


def test_a_translations_page_has_no_series_box_related_articles_or_pager(multilingual, client):
    for slug in ("first-post", "same-day"):
        path = multilingual / f"articles/{slug}.md"
        path.write_text(
            path.read_text(encoding="utf-8").replace("title:", "series: Notes\ntitle:", 1), encoding="utf-8"
        )
    import_content(multilingual, workers=1)
    original = client.get("/articles/first-post").content.decode()
    assert 'class="series-box"' in original and 'class="pager"' in original
    translation = client.get("/fr/articles/first-post").content.decode()
    assert "Premier article" in translation
    for part in ('class="series-box"', 'class="pager"', 'class="related'):
        assert part not in translation


@pytest.mark.parametrize("debug", [False, True])
def test_the_authoring_server_answers_a_languages_404_at_any_depth(multilingual, client, settings, debug):
    settings.DEBUG = debug
    fa, fr, en = '<html lang="fa" dir="rtl">', '<html lang="fr">', '<html lang="en">'
    for path, root in [("/fa/nope", fa), ("/fa/nope/deeper/still", fa), ("/fr/tags/nope/x", fr),
                       ("/nope/deeper", en), ("/de/nope/deeper", en)]:  # fmt: skip
        response = client.get(path)
        assert response.status_code == 404 and html_root(response) == root, path


def test_a_404_page_offers_no_version_of_the_missing_page(multilingual, client):
    # /fr/articles/nowhere resolves (an article's route) but has no article: the English
    # /articles/nowhere is missing too, so no alternate or offer names it; the switcher leads home.
    for path in ("/fr/articles/nowhere", "/fr/404", "/fr/nowhere/deeper", "/articles/nowhere"):
        response = client.get(path)
        page = response.content.decode()
        assert response.status_code == 404 and alternates(response) == [], path
        assert "language-offer" not in page and "nowhere" not in page.split("<body", 1)[1], path
        switcher = re.search(r'<nav class="language-switcher".*?</nav>', page, re.S)[0]
        assert re.findall(r'href="([^"]+)"', switcher) == ["/", "/fr/", "/fa/", "/ja/"], path


def test_the_switcher_leads_to_the_same_item_or_that_languages_home(multilingual, client):
    page = client.get("/fr/projects/alpha-one").content.decode()
    switcher = re.search(r'<nav class="language-switcher".*?</nav>', page, re.S)[0]
    links = re.findall(r'href="([^"]+)" hreflang="([^"]+)"', switcher)
    assert links == [("/projects/alpha-one", "en"), ("/fr/projects/alpha-one", "fr"),
                     ("/fa/projects/alpha-one", "fa"), ("/ja/", "ja")]  # fmt: skip
    assert 'aria-current="true">Français<' in switcher  # its own name
    assert "فارسی" in switcher  # site.yaml's name for it


def test_a_draft_translation_leaks_nowhere(multilingual, client):
    assert client.get("/fr/articles/same-day").status_code == 404
    assert client.get("/fr/articles/crlf-post").status_code == 404  # scheduled
    original = client.get("/articles/same-day").content.decode()
    assert "/fr/articles/same-day" not in original
    assert "Brouillon" not in client.get("/fr/articles").content.decode()
    feed = client.get("/fr/feed.xml").content.decode()
    assert "/fr/articles/same-day" not in feed and "Brouillon" not in feed
    sitemap = client.get("/sitemap-articles.xml").content.decode()
    assert "/fr/articles/same-day" not in sitemap and "/fr/articles/crlf-post" not in sitemap


def test_the_other_languages_lists_say_so_when_empty(multilingual, client):
    response = client.get("/ja/projects")
    assert response.status_code == 200
    assert "プロジェクトはまだありません。" in response.content.decode()  # "No projects yet.", its catalog's


def test_each_languages_pages_speak_it_and_the_defaults_stay_english(multilingual, client):
    """The site's words come from the language's catalog (locale/, docs/languages.md) on its
    pages; the default language's pages keep English, whatever was active before."""
    assert ">Projets<" in client.get("/fr/articles/first-post").content.decode()
    assert "پروژه‌ها" in client.get("/fa/articles/first-post").content.decode()
    assert "10 janvier 2025" in client.get("/fr/articles/first-post").content.decode()  # its date format
    english = client.get("/articles/first-post").content.decode()
    assert ">Projects<" in english and "10 January 2025" in english


def test_a_language_not_listed_has_no_pages(multilingual, client):
    assert client.get("/de/").status_code == 404
    assert client.get("/en/articles/first-post").status_code == 404  # the default has no prefix


def test_each_language_has_its_feed_and_the_sites_stays_the_defaults(multilingual, client):
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.fromstring(client.get("/fr/feed.xml").content)
    assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == "fr"
    assert feed.find(f"{atom}title").text == "Portfolio de test"
    links = [entry.find(f"{atom}link").get("href") for entry in feed.iter(f"{atom}entry")]
    assert links == [f"{BASE}/fr/projects/alpha-one", f"{BASE}/fr/articles/first-post"]
    site = ET.fromstring(client.get("/feed.xml").content)
    assert site.get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
    assert all("/fr/" not in e.find(f"{atom}link").get("href") for e in site.iter(f"{atom}entry"))
    tag = ET.fromstring(client.get("/fr/tags/introduction/feed.xml").content)
    assert [e.find(f"{atom}title").text for e in tag.iter(f"{atom}entry")] == ["Premier article"]
    assert (
        tag.find(f"{atom}subtitle").text
        == "Projets et articles étiquetés « introduction », du plus récent au plus ancien."
    )


def test_a_languages_header_leads_to_its_stack_where_it_has_one(multilingual, client):
    def stack_link(path):
        return re.search(
            r'<li><a href="([^"]+)"[^>]*>[^<]+</a></li>\s*<li><a href="/developers"',
            client.get(path).content.decode(),
        )[1]

    assert stack_link("/fr/articles") == "/fr/stack"  # stack.fr.yaml
    assert stack_link("/ja/articles") == "/stack"  # none in Japanese: the default's
    assert stack_link("/articles") == "/stack"


def test_sitemaps_list_each_version_with_xhtml_alternates(multilingual, client):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.fromstring(client.get("/sitemap-articles.xml").content)
    urls = {url.find("s:loc", ns).text: url for url in root.findall("s:url", ns)}
    assert f"{BASE}/fa/articles/first-post" in urls
    links = {
        link.get("hreflang"): link.get("href")
        for link in urls[f"{BASE}/articles/first-post"].findall("x:link", ns)
    }
    assert links == {
        "en": f"{BASE}/articles/first-post",
        "fr": f"{BASE}/fr/articles/first-post",
        "fa": f"{BASE}/fa/articles/first-post",
        "ja": f"{BASE}/ja/articles/first-post",
        "x-default": f"{BASE}/articles/first-post",
    }
    pages = client.get("/sitemap-pages.xml").content.decode()
    assert f"<loc>{BASE}/ja/</loc>" in pages and f"<loc>{BASE}/fr/about</loc>" in pages


def test_the_api_documents_keep_the_default_language(multilingual, client):
    document = client.get("/api/v1/articles/first-post.json").json()
    assert document["title"] == "First post"


def test_a_translations_markdown_twin_and_negotiation(multilingual, client):
    twin = client.get("/fr/articles/first-post.md")
    assert twin["Content-Type"].startswith("text/markdown")
    text = twin.content.decode()
    assert text.startswith("# Premier article\n")
    assert f"- Page: {BASE}/fr/articles/first-post" in text
    assert "Le corps en **français**." in text
    negotiated = client.get("/fa/articles/first-post", headers={"accept": "text/markdown"})
    assert negotiated.content.decode().startswith("# نخستین نوشته\n")
    assert client.get("/fr/about.md").content.decode().startswith("# À propos\n")
    assert client.get("/fr/articles/same-day.md").status_code == 404  # a draft translation


def test_llms_txt_lists_each_languages_pages(multilingual, client):
    text = client.get("/llms.txt").content.decode()
    assert "\n## In Français (fr)\n- [Home](https://portfolio.test/fr/):" in text
    assert (
        f"- [Tags]({BASE}/fr/tags): Every tag of its projects and articles, each with its page and feed; "
        f"its lists at {BASE}/fr/projects and {BASE}/fr/articles.\n"
    ) in text
    assert (
        f"- [Premier article]({BASE}/fr/articles/first-post.md): Le premier, en français. "
        f"(page: {BASE}/fr/articles/first-post; translation of {BASE}/articles/first-post)"
    ) in text
    assert f"- [À propos]({BASE}/fr/about.md)" in text
    assert "## In 日本語 (ja)" in text and "## In فارسی (fa)" in text
    assert "Brouillon" not in text and "Article futur" not in text


def test_a_translations_social_card_is_drawn_in_its_language_and_script(multilingual, client):
    page = client.get("/fa/articles/first-post").content.decode()
    assert f'<meta property="og:image" content="{BASE}/cards/fa/articles/first-post.png">' in page
    cards = {
        path: client.get(path)
        for path in ["/cards/articles/first-post.png", "/cards/fa/articles/first-post.png",
                     "/cards/ja/articles/first-post.png", "/cards/fr/projects/alpha-one.png"]
    }  # fmt: skip
    assert all(response.status_code == 200 for response in cards.values())
    assert all(response["Content-Type"] == "image/png" for response in cards.values())
    assert len({response.content for response in cards.values()}) == 4  # each its own title
    assert client.get("/cards/fr/articles/same-day.png").status_code == 404  # a draft translation


def test_a_translations_aliases_answer_under_its_languages_prefix(multilingual, client):
    for old, new in [
        ("/fr/articles/ancien-premier", "/fr/articles/first-post"),
        ("/fr/articles/ancien-premier.html", "/fr/articles/first-post"),
        ("/fr/articles/ancien-premier.md", "/fr/articles/first-post.md"),
        ("/fr/posts/premier/", "/fr/articles/first-post"),
        ("/fr/posts/premier", "/fr/articles/first-post"),
    ]:
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
    assert client.get("/articles/ancien-premier").status_code == 404  # not the default language's


def test_a_translations_alias_that_is_an_items_slug_is_an_error(multilingual):
    path = multilingual / "articles/first-post.ja.md"
    path.write_text(
        path.read_text().replace('title: "最初の記事"', 'title: "最初の記事"\naliases: [same-day]')
    )
    found = problems(multilingual)
    assert any(
        "articles/first-post.ja.md: aliases: 'same-day' is the slug of articles/same-day.md" in p
        for p in found
    )


def test_a_stack_translation_has_its_page_and_the_others_have_none(multilingual, client):
    page = client.get("/fr/stack").content.decode()
    assert "Tout tester" in page and "Un modèle hébergé" in page
    assert "Editor" in page  # its daily drivers are stack.yaml's
    assert client.get("/ja/stack").status_code == 404
    assert [code for code, _ in alternates(client.get("/stack"))] == ["en", "fr", "x-default"]
    assert f"<loc>{BASE}/fr/stack</loc>" in client.get("/sitemap-pages.xml").content.decode()


def test_a_stack_translation_in_a_language_not_listed_is_an_error(multilingual):
    (multilingual / "stack.de.yaml").write_text('currentFocus: "Alles"\n')
    (multilingual / "stack.en.yaml").write_text('currentFocus: "All"\n')
    found = problems(multilingual)
    assert (
        "stack.de.yaml: language: de is not one of site.yaml's languages (other than the default: fr, fa, ja)"
        in found
    )
    assert "stack.en.yaml: language: en is the site's default language: write it in stack.yaml" in found


def test_a_scheduled_translation_is_published_on_its_day_without_an_edit(multilingual, client, settings):
    import datetime

    assert client.get("/fr/articles/crlf-post").status_code == 404  # dated 2999-01-01
    settings.BUILD_DATE = datetime.date(2999, 1, 1)
    import_content(multilingual, workers=1)  # its file unchanged
    assert client.get("/fr/articles/crlf-post").status_code == 200
    settings.BUILD_DATE = datetime.date(2998, 12, 31)  # and back again
    import_content(multilingual, workers=1)
    assert client.get("/fr/articles/crlf-post").status_code == 404


PAGE = '---\ntitle: "{title}"\ndescription: "A page."\n{extra}---\nA page.\n'


def test_a_page_named_as_one_of_the_languages_is_refused(multilingual):
    """/fr would stand beside /fr/, the French home (fr.html beside fr/index.html in a build)."""
    (multilingual / "pages/fr.md").write_text(PAGE.format(title="Fr", extra=""))
    (multilingual / "pages/contact-me.md").write_text(PAGE.format(title="Contact", extra="aliases: [fa]\n"))
    assert sorted(problems(multilingual)) == [
        "pages/contact-me.md: aliases: 'fa': /fa would be taken for the site's pages in fa "
        "(/fa/, site.yaml's languages)",
        "pages/fr.md: file name: /fr would be taken for the site's pages in fr "
        "(/fr/, site.yaml's languages): name the page otherwise",
    ]


def test_an_old_address_that_is_a_languages_home_is_refused(multilingual):
    project = multilingual / "projects/delta.md"
    project.write_text(project.read_text().replace("status: active", 'status: active\naliases: ["/ja"]'))
    assert problems(multilingual) == [
        "projects/delta.md: aliases: '/ja' would hide the site's own address /ja/: "
        "expected an old address the site does not use",
    ]


@pytest.mark.parametrize(
    ("alias", "own"),
    [("/fr/", "/fr/"), ("/fr/projects", "/fr/projects"), ("/ja/tags/x/", "/ja/tags"),
     ("/fr/feed.xml", "/fr/feed.xml"), ("/fa/articles/page/2", "/fa/articles"),
     ("/fr/stack.html", "/fr/stack"), ("/fr/index.html", "/fr/index")],
)  # fmt: skip
def test_an_old_address_that_is_a_languages_own_page_is_refused(multilingual, alias, own):
    """A language's home, lists, tags, feed and stack are the site's, as the default's are."""
    translation = multilingual / "articles/first-post.fa.md"
    translation.write_text(translation.read_text().replace("tags:", f'aliases: ["{alias}"]\ntags:'))
    assert problems(multilingual) == [
        f"articles/first-post.fa.md: aliases: '{alias}' would hide the site's own address {own}: "
        "expected an old address the site does not use",
    ]


def test_what_is_under_a_language_and_the_defaults_code_stay_free(multilingual, client):
    (multilingual / "pages/en.md").write_text(PAGE.format(title="En", extra='aliases: ["/fr/vieux/"]\n'))
    import_content(multilingual, workers=1)  # the default language has no prefix: /en is a page's
    assert client.get("/en").status_code == 200
    assert client.get("/fr/vieux/")["Location"] == "/en"


def test_a_language_listed_after_the_page_of_its_code_is_refused(multilingual):
    """The page's file did not change: site.yaml's did, and it takes the page's address."""
    (multilingual / "pages/de.md").write_text(PAGE.format(title="De", extra="aliases: [nl]\n"))
    project = multilingual / "projects/delta.md"
    project.write_text(project.read_text().replace("status: active", 'status: active\naliases: ["/it.html"]'))
    import_content(multilingual, workers=1)
    site = multilingual / "site.yaml"
    site.write_text(site.read_text() + "  - code: de\n  - code: nl\n  - code: it\n")
    assert problems(multilingual) == [
        "pages/de.md: aliases: 'nl': /nl would be taken for the site's pages in nl "
        "(/nl/, site.yaml's languages)",
        "pages/de.md: file name: /de would be taken for the site's pages in de "
        "(/de/, site.yaml's languages): name the page otherwise",
        "projects/delta.md: aliases: '/it.html' would hide the site's own address /it/: "
        "expected an old address the site does not use",
    ]


def test_a_languages_addresses_listed_after_an_old_path_under_its_code_are_refused(multilingual):
    """/de/projects/ was an old address like any other until site.yaml listed de: its file did
    not change, and the German list takes its address."""
    project = multilingual / "projects/delta.md"
    project.write_text(
        project.read_text().replace("status: active", 'status: active\naliases: ["/de/projects/"]')
    )
    import_content(multilingual, workers=1)
    site = multilingual / "site.yaml"
    site.write_text(site.read_text() + "  - code: de\n")
    assert problems(multilingual) == [
        "projects/delta.md: aliases: '/de/projects/' would hide the site's own address /de/projects: "
        "expected an old address the site does not use",
    ]


def with_aliases(path, aliases):
    """Give the item or translation at `path` the front matter `aliases` (a YAML list)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", f"---\naliases: {aliases}\n", 1), encoding="utf-8")


def test_a_translations_old_path_is_checked_as_an_originals(multilingual):
    """It hides no page's address, old or new, and is one file's only, whichever changed: the
    hosts would answer /about with the translation (and nginx refuse two rules for /old/)."""
    with_aliases(multilingual / "pages/about.md", "[about-me]")
    with_aliases(
        multilingual / "articles/first-post.ja.md", '["/about/", "/about-me.html", "/work/alpha-project"]'
    )
    before = dict(moves())
    assert problems(multilingual) == [
        "articles/first-post.ja.md: aliases: '/work/alpha-project' is the address of '/work/alpha-project/', "
        "an alias of projects/alpha-one.md: an old address belongs to one item",
        "articles/first-post.ja.md: aliases: '/about/' is the address of pages/about.md: "
        "expected an old address the site does not use",
        "articles/first-post.ja.md: aliases: '/about-me.html' is an earlier address of pages/about.md: "
        "expected an old address the site does not use",
    ]
    assert dict(moves()) == before  # the import kept the previous content


def test_a_new_file_may_not_take_an_unchanged_translations_old_path_or_slug(multilingual):
    """Told in the file that changed, as between originals, by the import of that file alone too."""
    with_aliases(multilingual / "articles/first-post.ja.md", '["/colophon/"]')
    import_content(multilingual, workers=1)
    with_aliases(multilingual / "projects/delta.md", '["/fr/posts/premier"]')
    (multilingual / "pages/colophon.md").write_text(PAGE.format(title="Colophon", extra=""))
    (multilingual / "articles/ancien-premier.md").write_text(
        (multilingual / "articles/first-post.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    expected = [
        "articles/ancien-premier.md: file name: its slug is an alias of articles/first-post.fr.md: "
        "remove it there, or name this file otherwise",
        "pages/colophon.md: file name: its address is '/colophon/', an alias of articles/first-post.ja.md",
        "projects/delta.md: aliases: '/fr/posts/premier' is the address of '/fr/posts/premier/', "
        "an alias of articles/first-post.fr.md: an old address belongs to one item",
    ]
    assert problems(multilingual) == expected
    with pytest.raises(ContentInvalid) as caught:
        import_content(
            multilingual,
            workers=1,
            only={"projects/delta.md", "pages/colophon.md", "articles/ancien-premier.md"},
        )
    assert [str(error) for error in caught.value.errors] == expected


def test_an_old_path_may_not_be_a_translated_pages_address(multilingual):
    """/fr/about is the French page's, and /fr/a-propos its earlier address, as /about is the
    page's: an item's old path there would hide them."""
    with_aliases(multilingual / "pages/about.fr.md", "[a-propos]")
    with_aliases(multilingual / "projects/delta.md", '["/fr/about/", "/fr/a-propos.md", "/ja/about/"]')
    assert problems(multilingual) == [
        "projects/delta.md: aliases: '/fr/a-propos.md' is an earlier address of pages/about.fr.md: "
        "expected an old address the site does not use",
        "projects/delta.md: aliases: '/fr/about/' is the address of pages/about.fr.md: "
        "expected an old address the site does not use",
    ]  # /ja/about is free: the page has no Japanese translation


def test_a_new_translated_page_may_not_take_an_unchanged_items_old_path(multilingual):
    with_aliases(multilingual / "projects/delta.md", '["/ja/about/"]')
    import_content(multilingual, workers=1)
    (multilingual / "pages/about.ja.md").write_text(PAGE.format(title="について", extra=""))
    assert problems(multilingual) == [
        "pages/about.ja.md: file name: its address is '/ja/about/', an alias of projects/delta.md"
    ]


def test_a_translated_pages_earlier_slug_is_none_of_its_languages_addresses(multilingual, client):
    """/fr/projects would answer 301 to the page, hiding the French projects' list: the rule of
    the original pages' earlier slugs, under the language's prefix (/fr/fr is no home: free)."""
    with_aliases(multilingual / "pages/about.fr.md", "[projects, feed, index, fr, ja]")
    assert problems(multilingual) == [
        "pages/about.fr.md: aliases: 'projects': /fr/projects would be taken for the site's own "
        "address /fr/projects",
        "pages/about.fr.md: aliases: 'feed': /fr/feed would be taken for the site's own address /fr/feed.xml",
        "pages/about.fr.md: aliases: 'index': /fr/index would be taken for the site's own address "
        "/fr/index.html",
    ]
    text = (multilingual / "pages/about.fr.md").read_text(encoding="utf-8")
    (multilingual / "pages/about.fr.md").write_text(
        text.replace("[projects, feed, index, fr, ja]", "[fr, ja]")
    )
    import_content(multilingual, workers=1)
    assert client.get("/fr/ja")["Location"] == "/fr/about"


def test_a_languages_home_marks_the_default_languages_words_and_shows_its_own_focus(multilingual, client):
    french = client.get("/fr/").content.decode()
    assert '<h1 id="intro-title">Portfolio de test</h1>' in french
    assert '<p class="lede">Un portfolio pour les tests.</p>' in french
    assert re.search(r'<p class="focus"><strong>[^<]+</strong> Tout tester <a href="/fr/stack">', french)
    persian = client.get("/fa/").content.decode()  # no title, description or stack of its own
    assert '<h1 id="intro-title" lang="en" dir="ltr">Test Portfolio</h1>' in persian
    assert '<span lang="en" dir="ltr">Test Portfolio</span>' in persian  # the header's site name
    assert "<span>Portfolio de test</span>" in french
    assert '<p class="lede" lang="en" dir="ltr">' in persian
    assert re.search(
        r'<p class="focus"><strong>[^<]+</strong> <span lang="en" dir="ltr">[^<]+</span> <a href="/stack">',
        persian,
    )
    english = client.get("/").content.decode()
    assert '<h1 id="intro-title">Test Portfolio</h1>' in english and 'lang="en" dir' not in english


def test_the_switcher_is_named_in_the_pages_language(multilingual, client):
    assert '<nav class="language-switcher" aria-label="Langues">' in client.get("/fr/").content.decode()
    assert '<nav class="language-switcher" aria-label="Languages">' in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("fr", "Français"),
        ("zh-hant-tw", "繁體中文"),
        ("pt-ao", "Português"),
        ("en-gb", "British English"),
        ("xx", "xx"),
    ],
)
def test_a_language_is_named_in_its_own_words_by_its_nearest_general_form(code, name):
    """The switcher's label when site.yaml gives none: Django's own name for the code, or for the
    code without its region (a Hugo site's zh-hant-tw); a code nobody knows is shown as written."""
    assert native_name(code) == name
