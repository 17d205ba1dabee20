"""The move-in's language rules: a page named as one of the site's languages or as one of its own
addresses is renamed; an old address at a language's home or lists is left out (both as the
content format's aliases.py says)."""

import pytest

from portfolio.content.importer import import_content
from portfolio.content.models import Page

from .test_import_from import POST, move


def hugo_site(root, pages):
    """A Hugo site in en and fr with one translated post and the standalone `pages` ({name: front
    matter lines})."""
    (root / "content/posts").mkdir(parents=True)
    (root / "hugo.toml").write_text(
        'baseURL = "https://two.example/"\ndefaultContentLanguage = "en"\n'
        '[params]\nmainSections = ["posts"]\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n'
    )
    (root / "content/posts/cup.md").write_text(POST.format(title="Cup", body="A cup."))
    (root / "content/posts/cup.fr.md").write_text(POST.format(title="Tasse", body="Une tasse."))
    for name, lines in pages.items():
        (root / f"content/{name}.md").write_text(f"---\ntitle: {name.title()}\n{lines}---\nText of {name}.\n")
    return root


@pytest.mark.django_db
def test_a_page_named_as_a_language_or_an_own_address_is_renamed(tmp_path):
    source = hugo_site(tmp_path / "hugo", {"fr": "", "projects": "", "fra": ""})
    report, files = move("hugo", source, tmp_path / "dest")
    assert sorted(path for path in files if path.startswith("pages/")) == [
        "pages/fr-page.md", "pages/fra.md", "pages/projects-page.md",
    ]  # fmt: skip
    assert (
        "converted  content/fr.md -> pages/fr-page.md\n           warning: its slug 'fr': /fr would be "
        "taken for the site's pages in fr (/fr/, site.yaml's languages): written as 'fr-page'" in report
    )
    assert (
        "warning: its slug 'projects': /projects would be taken for the site's own address /projects"
        in report
    )
    # Their old addresses are the site's own (the French home, the projects list): left out.
    assert "warning: old address '/fr/': is this site's own address /fr/; left out" in report
    assert "warning: old address '/projects/': is this site's own address /projects; left out" in report
    assert "aliases" not in files["pages/fr-page.md"].decode()
    import_content(tmp_path / "dest", workers=1)  # it imports as it is
    assert sorted(Page.objects.values_list("slug", flat=True)) == ["fr-page", "fra", "projects-page"]


def test_an_old_address_under_a_language_s_own_lists_is_left_out(tmp_path):
    source = hugo_site(tmp_path / "hugo", {})
    (source / "content/posts/cup.fr.md").write_text(
        '---\ntitle: "Tasse"\ndate: 2020-01-01\naliases: ["/fr/tags/tasses/", "/fr/vieux/"]\n---\nUne.\n'
    )
    report, files = move("hugo", source, tmp_path / "dest")
    french = files["articles/cup.fr.md"].decode()
    assert '  - "/fr/vieux/"' in french and "/fr/tags/" not in french
    assert "old address '/fr/tags/tasses/': is this site's own address /fr/tags; left out" in report


def test_a_page_named_as_a_language_site_yaml_already_lists(tmp_path):
    """An existing site.yaml's languages are the site's: a page `de` is renamed though the move
    brings no German."""
    source = hugo_site(tmp_path / "hugo", {"de": ""})
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "site.yaml").write_text(
        'title: "T"\ndescription: "D"\nauthor: "A"\nurl: "https://t.example"\n'
        'languages:\n  - code: "en"\n  - code: "de"\n  - code: "fr"\n'
    )
    report, files = move("hugo", source, dest)
    assert "pages/de-page.md" in files and "pages/de.md" not in files


@pytest.mark.django_db
def test_hugo_default_language_in_a_subdir_keeps_its_addresses(tmp_path):
    """With defaultContentLanguageInSubdir Hugo published the default language's pages under
    /en/ (its home /en/, / redirecting there): those are the old addresses, and links to them
    find the pages (the home is the new home)."""
    source = tmp_path / "hugo"
    for language in ("en", "de"):
        (source / f"content/{language}/posts").mkdir(parents=True)
    (source / "hugo.toml").write_text(
        'baseURL = "https://example.org/"\ndefaultContentLanguage = "en"\n'
        "defaultContentLanguageInSubdir = true\n"
        '[languages.en]\ncontentDir = "content/en"\nweight = 1\n'
        '[languages.de]\ncontentDir = "content/de"\nweight = 2\n'
    )
    (source / "content/en/about.md").write_text("---\ntitle: About\n---\nMe.\n")
    (source / "content/en/posts/hello.md").write_text(
        POST.format(title="Hello", body="[About](/en/about/), [home](/en/), [again](../../about/).")
    )
    (source / "content/de/posts/hello.md").write_text(POST.format(title="Hallo", body="Hallo."))
    report, files = move("hugo", source, tmp_path / "dest")
    assert "warning:" not in report
    hello = files["articles/hello.md"].decode()
    assert '  - "/en/posts/hello/"' in hello
    assert "[About](../pages/about.md), [home](/), [again](../pages/about.md)." in hello
    assert '  - "/en/about/"' in files["pages/about.md"].decode()
    assert '  - "/de/posts/hello/"' in files["articles/hello.de.md"].decode()
    import_content(tmp_path / "dest", workers=1)  # it imports as it is
    assert sorted(Page.objects.values_list("slug", flat=True)) == ["about"]


def jekyll_site(root, config, files):
    """A Jekyll site: `_config.yml` and `files` ({path: text})."""
    root.mkdir(parents=True)
    (root / "_config.yml").write_text("title: Harbour\nurl: https://harbour.example\n" + config)
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_polyglot_language_codes_are_made_the_format_s_with_a_note_and_a_warning(tmp_path):
    source = jekyll_site(
        tmp_path / "site",
        'languages: ["en", "pt_BR"]\ndefault_lang: "en"\npermalink: /:title/\n',
        {
            "_posts/2020-01-01-boat.md": "---\ntitle: Boat\n---\nA boat.\n",
            "_posts/2020-01-01-barco.md": "---\ntitle: Barco\nlang: pt_BR\npermalink: /boat/\n---\nUm.\n",
        },
    )
    report, files = move("jekyll", source, tmp_path / "dest")
    assert "note: _config.yml line 3: language 'pt_BR' is written 'pt-br' here (lowercase, '-')" in report
    assert (
        "_posts/2020-01-01-barco.md -> articles/boat.pt-br.md\n"
        "           warning: line 3: lang 'pt_BR' is written 'pt-br' here (lowercase, '-')" in report
    )
    # Its old address is the one polyglot served: the language as the old site wrote it.
    assert '  - "/pt_BR/boat/"' in files["articles/boat.pt-br.md"].decode()
    assert files["site.yaml"].decode().endswith('languages:\n  - code: "en"\n  - code: "pt-br"\n')


def test_polyglot_a_lang_none_of_the_config_s_is_the_default_s(tmp_path):
    source = jekyll_site(
        tmp_path / "site",
        'languages: ["en", "fr"]\ndefault_lang: "en"\n',
        {"_posts/2020-01-01-boat.md": "---\ntitle: Boat\nlang: de\n---\nEin Boot.\n"},
    )
    report, files = move("jekyll", source, tmp_path / "dest")
    assert (
        "warning: line 3: language 'de' is none of the config's languages (en, fr): read as the default's"
        in report
    )
    assert "articles/boat.md" in files and "languages" not in files["site.yaml"].decode()


def test_polyglot_lang_from_path_and_page_id(tmp_path):
    source = jekyll_site(
        tmp_path / "site",
        'languages: ["en", "de"]\ndefault_lang: "en"\nlang_from_path: true\n',
        {
            "about.md": "---\ntitle: About\npermalink: /about/\npage_id: about\n---\nUs.\n",
            "de/ueber-uns.md": "---\ntitle: Über uns\npermalink: /ueber-uns/\npage_id: about\n---\nWir.\n",
            "now.md": "---\ntitle: Now\npermalink: /now/\n---\nNow.\n",
        },
    )
    report, files = move("jekyll", source, tmp_path / "dest")
    german = files["pages/about.de.md"].decode()  # de/ by its path, about by its page_id
    assert german.startswith('---\ntitle: "Über uns"\n') and '  - "/de/ueber-uns/"' in german
    # An untranslated page was served under /de/ too (polyglot's fallback): that address moves.
    assert '  - "/de/now/"' in files["pages/now.md"].decode()
    assert '"/de/about/"' not in files["pages/about.md"].decode()  # it has its German version


def test_multiple_languages_plugin_posts_under_i18n(tmp_path):
    source = jekyll_site(
        tmp_path / "site",
        'languages: ["es", "en"]\npermalink: /:year/:title/\n',
        {
            "_i18n/es.yml": "hello: Hola\n",
            "_i18n/es/_posts/2021-03-03-faro.md": "---\ntitle: El faro\n---\nLuz.\n",
            "_i18n/en/_posts/2021-03-03-faro.md": "---\ntitle: The lighthouse\n---\nLight.\n",
            "about.md": "---\ntitle: Sobre\npermalink: /about/\n---\n{% t about.text %}\n",
        },
    )
    report, files = move("jekyll", source, tmp_path / "dest")
    # The first language is the default: its posts are the originals, at the site's root.
    assert '  - "/2021/faro/"' in files["articles/faro.md"].decode()
    assert '  - "/en/2021/faro/"' in files["articles/faro.en.md"].decode()
    assert '  - "/en/about/"' in files["pages/about.md"].decode()  # a page is built in every language
    assert files["site.yaml"].decode().endswith('languages:\n  - code: "es"\n  - code: "en"\n')


def test_a_jekyll_page_named_as_a_language_is_renamed(tmp_path):
    source = jekyll_site(
        tmp_path / "site",
        'languages: ["en", "fr"]\ndefault_lang: "en"\n',
        {
            "_posts/2020-01-01-boat.md": "---\ntitle: Boat\npermalink: /boat/\n---\nA boat.\n",
            "_posts/2020-01-01-bateau.md": "---\ntitle: Bateau\nlang: fr\npermalink: /boat/\n---\nUn.\n",
            "fr.md": "---\ntitle: Français\n---\nDu français.\n",
        },
    )
    report, files = move("jekyll", source, tmp_path / "dest")
    assert (
        "converted  fr.md -> pages/fr-page.md\n           warning: its slug 'fr': /fr would be taken"
        in report
    )
