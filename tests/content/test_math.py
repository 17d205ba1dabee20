"""Formulas in bodies (portfolio/content/math.py): `$...$` and `$$...$$` become MathML at import,
dollars are read as pandoc reads them, code keeps its dollars, the markdown twin and the API's
`body` keep the LaTeX, and a formula that cannot be read is the import's error naming the line."""

import json
import re

import pytest

from portfolio.content.importer import import_content
from tests.content_builder import FILES, article, write_content
from tests.pages.test_contents import Page

from .helpers import assert_named_error

BODY = (
    "Energy is $E = mc^2$, and it costs $5 and $10 (no math), or \\$20.\n\n"
    "$$\n\\sum_{i=1}^{n} x_i^2 \\le \\frac{a}{b}\n$$\n\n"
    "Code keeps `$x$` and:\n\n"
    "```sh\necho $HOME $PATH$\n```\n\n"
    "    $indented$ too\n\n"
    "A space after the opening dollar: $ x$; before the closing one: $x $; a digit after it: $x$1.\n"
)


@pytest.fixture
def math_site(db, tmp_path, settings):
    files = dict(FILES) | {"articles/math.md": article("Math", date="2026-06-01", body=BODY)}
    content = write_content(tmp_path / "content", files)
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content
    import_content(content, workers=1)
    return content


def prose(html):
    return html[html.index('<div class="prose">') :]


def test_formulas_are_mathml_and_prose_and_code_keep_their_dollars(math_site, client):
    html = prose(client.get("/articles/math").content.decode())
    inline = re.findall(r'<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">', html)
    block = re.findall(
        r'<math xmlns="http://www.w3.org/1998/Math/MathML" display="block" tabindex="0">', html
    )
    assert (len(inline), len(block)) == (1, 1)
    assert "<msup><mi>c</mi><mn>2</mn></msup>" in html and "<mfrac>" in html and "<munderover>" in html
    assert "it costs $5 and $10 (no math), or $20." in html  # `\$` is a dollar
    assert "<code>$x$</code>" in html
    text = re.sub(r"<[^>]+>", "", html)  # the code blocks' text, without the highlighting's spans
    assert "echo $HOME $PATH$" in text and "$indented$ too" in text
    assert "$ x$; before the closing one: $x $; a digit after it: $x$1." in html
    assert "<script" not in html
    page = Page(client.get("/articles/math").content.decode())
    assert page.errors == []


def test_the_twin_and_the_api_keep_the_latex(math_site, client):
    twin = client.get("/articles/math.md").content.decode()
    assert "$E = mc^2$" in twin and "\\sum_{i=1}^{n} x_i^2" in twin and "<math" not in twin
    document = json.loads(client.get("/api/v1/articles/math").content)
    assert document["body"] == BODY


@pytest.mark.parametrize(
    "formula, expected",
    [
        ("$x^$", "formula '$x^$': cannot be read as LaTeX (missing super script or subscript)"),
        ("$\\frac{a}{b$", "unbalanced braces"),
        ("$$\n\\nosuchcommand{x}\n$$", "unknown command \\nosuchcommand"),
        ("$\\style{color:red}{x}$", "a command making a style attribute"),
    ],
)
def test_a_formula_that_cannot_be_read_names_its_file_and_line(imported, formula, expected):
    # Front matter lines 1-5, the body's first line is 6: the formula is on line 8.
    write_content(imported, {"articles/bad-math.md": article(body=f"One.\n\nTwo {formula} here.\n")})
    assert_named_error(imported, "articles/bad-math.md", "line 8", expected)
