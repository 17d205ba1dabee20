"""A code fence whose info string says more than its language is still code (portfolio/content/
fences.py): Astro's ```ts title="x.ts", `file=...`, Hugo's ```go {linenos=true}."""

import pytest

from portfolio.content.markdown import render


@pytest.mark.parametrize(
    "opening, language",
    [
        ('```ts title="src/config.ts"', "ts"),
        ("```python file=app.py", "python"),
        ("```go {linenos=true}", "go"),
        ("~~~ js showLineNumbers", "js"),
        ("```ts", "ts"),
    ],
)
def test_a_fence_with_more_than_its_language_is_code(opening, language):
    fence = opening[:3]
    html = render(f"Before.\n\n{opening}\nconst answer = 42;\n{fence}\n\nAfter.\n").html
    assert '<div class="highlight"><pre tabindex="0">' in html and "answer" in html
    assert "title=" not in html.split("<pre")[1] and "<p>Before.</p>" in html and "<p>After.</p>" in html


def test_a_fence_line_inside_code_stays_as_written():
    html = render('````\n```ts title="a.ts"\n````\n').html
    assert '```ts title="a.ts"' in html


def test_a_fence_with_only_attributes_is_code_without_a_language():
    html = render('``` title="notes.txt"\nplain\n```\n').html
    assert "<pre" in html and "plain" in html and "title" not in html
