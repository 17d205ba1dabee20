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
