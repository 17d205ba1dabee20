"""The site's own words in the active language (locale/, tools/messages.py, docs/languages.md):
labels, headings, messages, dates and counts; English when no language is active, and English
for any word a catalog lacks, never an empty label."""

import datetime
import html
import json
import re
import shutil
import subprocess
import sys

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation

from pages.card_drawing import dated
from pages.tags import Tag
from tests.content_builder import SERIES

sys.path.insert(0, str(settings.BASE_DIR / "tools"))
import messages  # noqa: E402  (tools/messages.py: the catalogs' tool)

LANGUAGES = ["fr", "de", "es", "ja", "zh-hans", "fa"]

# A few words of every page, per language: the header's links and the page's own.
EXPECTED = {
    "fr": {"/": ["Projets", "Aller au contenu", "Projets à la une", "Derniers articles"],
           "/articles/first-post": ["min de lecture", "10 janvier 2025", "Étiquettes"],
           "/stack": ["Outils du quotidien", "Outil", "1 octobre 2026"],
           "/search": ["Rechercher dans les projets, les articles et la stack"],
           "/contact": ["Envoyer", "Nom"],
           "/tags": ["Étiquettes"],
           "/developers": ["Chaque adresse est un simple <code>GET</code>", "Ce que l’API n’offre pas"]},
    "de": {"/": ["Projekte", "Zum Inhalt springen", "Ausgewählte Projekte"],
           "/articles/first-post": ["Min. Lesezeit", "10. Januar 2025"],
           "/stack": ["Tägliche Werkzeuge", "1. Oktober 2026"],
           "/search": ["Projekte, Artikel und den Stack durchsuchen"],
           "/contact": ["Nachricht senden"], "/tags": ["Schlagwörter"]},
    "es": {"/": ["Proyectos", "Ir al contenido", "Proyectos destacados"],
           "/articles/first-post": ["min de lectura", "10 de enero de 2025"],
           "/stack": ["Herramientas diarias", "1 de octubre de 2026"],
           "/search": ["Buscar en proyectos, artículos y el stack"],
           "/contact": ["Enviar mensaje"], "/tags": ["Etiquetas"]},
    "ja": {"/": ["プロジェクト", "本文へ移動", "注目のプロジェクト"],
           "/articles/first-post": ["分で読めます", "2025年1月10日"],
           "/stack": ["普段使いのツール", "2026年10月1日"],
           "/search": ["プロジェクト・記事・スタックを検索"],
           "/contact": ["送信する"], "/tags": ["タグ"],
           "/developers": ["API が提供しないもの", "キーも登録も不要です。"]},
    "zh-hans": {"/": ["项目", "跳到正文", "精选项目"],
                "/articles/first-post": ["阅读时间 1 分钟", "2025年1月10日"],
                "/stack": ["日常工具", "2026年10月1日"],
                "/search": ["搜索项目、文章和技术栈"],
                "/contact": ["发送留言"], "/tags": ["标签"]},
    "fa": {"/": ["پروژه‌ها", "رفتن به محتوا", "پروژه‌های برگزیده"],
           "/articles/first-post": ["دقیقه مطالعه", "10 ژانویه 2025"],
           "/stack": ["ابزارهای روزمره", "1 اکتبر 2026"],
           "/search": ["جست‌وجو در پروژه‌ها، مقاله‌ها و ابزارها"],
           "/contact": ["فرستادن پیام"], "/tags": ["برچسب‌ها"],
           "/developers": ["آنچه API ارائه نمی‌دهد"]},
}  # fmt: skip
# English words of the pages above that every language translates.
ENGLISH = [
    "Skip to content",
    ">Projects<",
    "Featured projects",
    "min read",
    "Daily drivers",
    "Send message",
    "Every address is",
]
EMPTY = [
    re.compile(r'(aria-label|placeholder|title|alt|data-label)=""'),
    re.compile(r"<(h[1-6]|button|label|a|th|strong|span class=\"visually-hidden\")( [^>]*)?>\s*</"),
]


def empty_labels(body):
    # A content image may have an empty alt on purpose, and the giscus box is empty until loaded.
    body = body.replace('<div class="giscus"></div>', "")
    return [
        match.group(0)
        for pattern in EMPTY
        for match in pattern.finditer(body)
        if "alt=" not in match.group(0)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_speak_the_active_language(get, language):
    with translation.override(language):
        for path, words in EXPECTED[language].items():
            body = get(path)[1]
            for word in words:
                assert word in body, (language, path, word)
            for english in ENGLISH:
                assert english not in body, (language, path, english)
            assert not empty_labels(body), (language, path, empty_labels(body))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_404_page_and_the_series_box_in_the_active_language(get, content_dir, language):
    from tests.content_builder import write_content

    write_content(content_dir, SERIES)
    from portfolio.content.importer import import_content

    import_content(content_dir, workers=1)
    with translation.override(language):
        missing = get("/no-such-page", status=404)[1]
        part = get("/articles/site-part-one")[1]
    assert "Page not found" not in missing and not empty_labels(missing)
    title = re.search(r'<p class="series-title" id="series-title">(.*?)</p>', part).group(1)
    assert "Part 1 of 2" not in title and 'href="/series/building-a-site"' in title
    assert "Related articles" not in part and not empty_labels(part)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_html_page_in_every_language_has_no_empty_label(imported, client, language):
    """Every page the export writes, rendered in the language: a word a catalog lost would show
    as an empty heading, link, button or aria-label."""
    from .conftest import body_of, distilled

    pages = 0
    with translation.override(language):
        for path, statuses in distilled():
            response = client.get(path)
            assert response.status_code in statuses, (language, path)
            if response["Content-Type"].startswith("text/html"):
                pages += 1
                body = body_of(response)
                assert not empty_labels(body), (language, path, empty_labels(body))
                assert "Skip to content" not in body, (language, path)
    assert pages > 10


def test_the_markdown_forms_in_the_active_language(get):
    assert get("/tags/python.md")[1].startswith("# python\n\n3 projects and 1 article tagged “python”")
    with translation.override("fr"):
        tag = get("/tags/python.md")[1]
        home = get("/index.md")[1]
    assert "3 projets et 1 article avec l’étiquette « python », du plus récent au plus ancien." in tag
    assert "Flux Atom : https://portfolio.test/tags/python/feed.xml" in tag
    assert "## Projets à la une" in home and "Tous les articles : https://portfolio.test/articles" in home


def test_english_when_no_language_is_active(get):
    body = get("/articles/first-post")[1]
    assert '<span class="reading-time">1 min read</span>' in body
    assert "10 January 2025" in body and "data-words" not in body


def test_a_word_no_catalog_has_stays_english():
    template = engines["jinja2"].from_string('{{ _("A word no catalog has") }}|{{ _("Projects") }}')
    with translation.override("fr"):
        assert template.render() == "A word no catalog has|Projets"
    with translation.override("nl"):  # a language without a catalog: English throughout
        assert template.render() == "A word no catalog has|Projects"


def test_dates_in_the_language_format():
    day = datetime.date(2024, 3, 3)
    template = engines["jinja2"].from_string(
        "{{ day|date('DATE_FORMAT') }}|{{ day|date('YEAR_MONTH_FORMAT') }}"
    )
    expected = {
        "en": "3 March 2024|Mar 2024",
        "fr": "3 mars 2024|mars 2024",
        "de": "3. März 2024|März 2024",
        "es": "3 de marzo de 2024|marzo de 2024",
        "ja": "2024年3月3日|2024年3月",
        "zh-hans": "2024年3月3日|2024年3月",
        "fa": "3 مارس 2024|مارس 2024",
    }
    for language, text in expected.items():
        with translation.override(language):
            assert template.render({"day": day}) == text, language
        # The social card draws the date the page shows.
        assert dated(day, language) == text.split("|")[0]
    assert dated(day) == "3 March 2024"


def test_counts_follow_each_language_plural_rule():
    template = engines["jinja2"].from_string('{{ ngettext("%(num)s min read", "%(num)s min read", n) }}')
    with translation.override("fr"):
        assert template.render({"n": 1}) == "1 min de lecture"
        assert template.render({"n": 2}) == "2 min de lecture"
        # French counts 0 as one: "0 projet"; German as many: "0 Projekte".
        assert Tag("x", "x", 0, 2, None).counted == "2 articles"
        assert Tag("x", "x", 1, 1, None).counted == "1 projet et 1 article"
        assert translation.ngettext("%(count)s project", "%(count)s projects", 0) == "%(count)s projet"
    with translation.override("de"):
        assert translation.ngettext("%(count)s project", "%(count)s projects", 0) == "%(count)s Projekte"
        assert Tag("x", "x", 2, 1, None).counted == "2 Projekte und 1 Artikel"
    with translation.override("ja"):
        assert template.render({"n": 3}) == "3 分で読めます"
    assert Tag("x", "x", 1, 2, None).counted == "1 project and 2 articles"


def test_the_scripts_words_come_from_the_page(get):
    english = get("/search")[1]
    assert "data-words" not in english
    with translation.override("fr"):
        search = get("/search")[1]
        contact = get("/contact")[1]
    words = json.loads(html.unescape(re.search(r"<form [^>]*data-words='([^']*)'", search).group(1)))
    assert words["No results for “%(term)s”"] == "Aucun résultat pour « %(term)s »"
    assert words["%(count)s result for “%(term)s”"] == [
        "%(count)s résultat pour « %(term)s »",
        "%(count)s résultats pour « %(term)s »",
    ]
    body_words = json.loads(html.unescape(re.search(r"<body data-words='([^']*)'", search).group(1)))
    assert body_words["Copy"] == "Copier" and body_words["Theme: dark"] == "Thème : sombre"
    assert "Envoi…" in html.unescape(contact)


def test_every_word_the_scripts_say_is_offered_by_the_page():
    """Each English text a script passes to tr() is one of the templates' script_words, so that a
    catalog can translate it."""
    offered = {msgid for msgid, _plural in messages.find_words()}
    scripts = [
        *(settings.BASE_DIR / "pages" / "static" / "pages").glob("*.js"),
        settings.BASE_DIR / "contact" / "static" / "contact" / "contact.js",
    ]
    said = set()
    for script in scripts:
        text = re.sub(r'"\s*\+\s*"', "", script.read_text())  # a string cut over two lines
        said |= set(re.findall(r'\btr\((?:table,\s*)?"([^"]+)"', text))
    assert said and said <= offered, said - offered


def test_the_catalogs_are_up_to_date_and_complete():
    assert messages.main(["--check"]) == 0, "run tools/messages.py"
    words = messages.find_words()
    for po in messages.catalogs():
        language = po.parent.parent.name
        if language == "en":
            continue
        entries = messages.read_po(po)
        untranslated = [key for key in words if not all(entries.get(key, [""]))]
        assert not untranslated, (language, untranslated)
    languages = {code for code, _name in settings.LANGUAGES}
    assert {translation.to_locale(code) for code in languages} == {
        po.parent.parent.name for po in messages.catalogs()
    }


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_the_committed_mo_files_are_the_compiled_po_files(tmp_path):
    for po in messages.catalogs():
        mo = tmp_path / "django.mo"
        subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)
        assert mo.read_bytes() == po.with_suffix(".mo").read_bytes(), f"{po}: run tools/messages.py"


def test_a_tag_feed_says_what_it_follows_in_the_active_language(get):
    assert "Projects and articles tagged “intro”, newest first." in get("/tags/intro/feed.xml")[1]
    with translation.override("fr"):
        assert (
            "Projets et articles étiquetés « intro », du plus récent au plus ancien."
            in get("/tags/intro/feed.xml")[1]
        )


def test_a_catalog_reads_back_what_it_wrote(tmp_path):
    words = {('Say "hi"\n  then \\ go', None): ["x.html:1"], ("%(n)s one", "%(n)s many"): ["y.py:2"]}
    translations = {
        ('Say "hi"\n  then \\ go', None): ["Dis « salut »\\"],
        ("%(n)s one", "%(n)s many"): ["un", "plusieurs"],
    }
    po = tmp_path / "django.po"
    po.write_text(messages.po_text("fr", words, translations), encoding="utf-8")
    read = messages.read_po(po)
    assert {key: read[key] for key in words} == translations
    assert "#, python-format" in po.read_text()
