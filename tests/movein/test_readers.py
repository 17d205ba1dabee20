"""The readers' parts, one at a time: the Astro content config read as text, dates as JavaScript
reads them, remark directives, kramdown, Hugo's merged configuration and languages, its paths, and
what Hugo's Goldmark reads beyond CommonMark (heading attributes, definition lists)."""

import datetime
import time
from types import SimpleNamespace

import pytest

from portfolio.movein import anchors, directives, kramdown, tsconfig
from portfolio.movein.astro import Astro
from portfolio.movein.convert import Context
from portfolio.movein.hugo import Hugo, _urlize
from portfolio.movein.posts import Post, date_of


class Warned(SimpleNamespace):
    def __init__(self):
        super().__init__(warnings=[])

    def warn(self, message, at=None):
        self.warnings.append(message)


def test_the_content_config_names_each_collection_and_its_folder():
    found = tsconfig.collections(
        """
        export const BLOG_PATH = "src/data/blog"; // AstroPaper 5
        /* a comment: defineCollection({ loader: glob({ base: "nope" }) }) */
        const blog = defineCollection({
          loader: glob({ pattern: "**/[^_]*.md", base: `./${BLOG_PATH}` }),
          schema: ({ image }) => z.object({ title: z.string() }),
        });
        const notes = defineCollection({ loader: file("src/data/notes.json") });
        const legacy = defineCollection({ type: "content" });
        const remote = defineCollection({ loader: glob({ base: importedPath }) });
        export const collections = { blog, notes, "old-posts": legacy, remote };
        """
    )
    assert (found["blog"].loader, found["blog"].base, found["blog"].pattern) == (
        "glob", "./src/data/blog", "**/[^_]*.md",
    )  # fmt: skip
    assert found["notes"].loader == "file"
    assert found["old-posts"].loader is None  # src/content/old-posts/
    assert found["remote"].base is None and "cannot be read without running it" in found["remote"].unread


def test_a_hostile_content_config_is_read_in_linear_time():
    start = time.perf_counter()
    tsconfig.collections("defineCollection(" * 50_000 + "`${" * 50_000 + "/*" + '"' * 50_000)
    imports = "import { A as B, " * 50_000 + '} from "./x";' + "import {} from './y';" * 50_000
    tsconfig.collections(imports, lambda specifier: ("export const A = `${A}`;" * 50_000, None))
    assert time.perf_counter() - start < 3


def test_astro_i18n_locales_as_strings_and_as_paths_with_codes(tmp_path):
    (tmp_path / "src/content/blog/english").mkdir(parents=True)
    (tmp_path / "src/content/blog/portugues").mkdir()
    (tmp_path / "astro.config.mjs").write_text(
        "export default defineConfig({\n  i18n: {\n    defaultLocale: 'english',\n"
        '    locales: [{ path: "english", codes: ["en", "en-GB"] }, "es",\n'
        '              { codes: ["pt-BR", "pt"], path: "portugues" }, ["not", "one"]],\n'
        "    fallback: { es: 'english' },\n  },\n});\n"
    )
    site = Astro(tmp_path)
    assert site.locales == {"english": "en", "es": "es", "portugues": "pt-br"}
    assert (site.default_locale, site.default_language) == ("english", "en")
    assert tsconfig.i18n("export default defineConfig({ i18n })") == ("", {})  # not read: a name


@pytest.mark.parametrize(
    "pattern, path, matched",
    [
        ("**/[^_]*.{md,mdx}", "a/b.mdx", True),
        ("**/[^_]*.{md,mdx}", "a/_b.md", False),
        ("*.md", "a/b.md", False),
    ],
)
def test_glob_patterns(pattern, path, matched):
    assert bool(tsconfig.glob_pattern(pattern).fullmatch(path)) is matched


@pytest.mark.parametrize(
    "written", ["25 Aug 2024", "Aug 25, 2024", "August 25th, 2024", "Sun, 25 Aug 2024 10:00:00 GMT",
                "2024/08/25", "08/25/2024", "2024-08-25T23:30:00-05:00"],
)  # fmt: skip
def test_dates_as_javascript_reads_them(written):
    assert date_of(written) == datetime.date(2024, 8, 25)


def test_directives():
    post = Warned()
    body = '::github{repo="a/b"}\n\n:::warning\nHot.\n:::\n\n::chart{data=x}\n\n```\n:::tip\n```\n'
    assert directives.convert(post, body) == (
        "[a/b](https://github.com/a/b)\n\n> [!WARNING]\n> Hot.\n\n\n```\n:::tip\n```\n"
    )
    assert post.warnings == ["directive ::chart has no equivalent here: dropped"]


def test_a_fence_line_indented_four_spaces_does_not_close_the_code():
    """CommonMark: it is a line of the code, so the directive after it is code too."""
    post = Warned()
    body = '```\n    ```\n::chart{data=x}\n```\n\n::github{repo="a/b"}\n'
    assert (
        directives.convert(post, body)
        == "```\n    ```\n::chart{data=x}\n```\n\n[a/b](https://github.com/a/b)\n"
    )
    assert post.warnings == []


def test_text_directives():
    post = Warned()
    body = (
        'Press :kbd[Ctrl]+:kbd[C] on an :abbr[HTML]{title="Hyper <Text>"} page.\n'
        'See :github[withastro/astro], :link[the docs]{href="https://docs.astro.build/"} and '
        ":badge[New]{variant=tip}.\n"
        ":empty[] goes.\n"
    )
    assert directives.convert(post, body) == (
        'Press <kbd>Ctrl</kbd>+<kbd>C</kbd> on an <abbr title="Hyper &lt;Text&gt;">HTML</abbr> page.\n'
        "See [withastro/astro](https://github.com/withastro/astro), [the docs](https://docs.astro.build/)"
        " and New.\n goes.\n"
    )
    assert post.warnings == [
        "directive :badge[New] has no equivalent here: its text kept",
        "directive :empty[] has no equivalent here: dropped",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "`:kbd[in a span]`", "```\n:kbd[fenced]\n```", "https://example.org/:id[0]", "At 10:30[sharp]",
        ":smile: and :+1:", "a:b[c]", "C:\\Users[1]", "\\:kbd[escaped]", "a ::kbd[two colons]",
        ":bad-[name ends in a hyphen]", ":kbd[a [nested] label]", ":link[x]{href=javascript:alert(1)}x",
    ],
)  # fmt: skip
def test_what_is_not_a_text_directive_stays_as_written(text):
    post = Warned()
    converted = directives.convert(post, text)
    if text.startswith(":link"):  # a directive, but its address is not one: its label
        assert converted == "xx" and post.warnings
    else:
        assert converted == text and not post.warnings


def test_text_directives_are_read_in_linear_time():
    post = Warned()
    start = time.perf_counter()
    directives.convert(post, ":a[" * 100_000 + ":b[x]{" * 100_000 + ":" + "c" * 100_000 + "-[")
    assert time.perf_counter() - start < 3


def test_kramdown():
    post = Warned()
    body = '* TOC\n{:toc}\n\nMind it.\n{: .notice--danger}\n\n[x](y){:target="_blank"}\n{: #anchor}\n'
    assert kramdown.convert(post, body, body) == "\n> [!CAUTION]\n> Mind it.\n\n[x](y)\n"
    assert len(post.warnings) == 4


def test_hugo_merges_its_configuration_as_hugo_does(tmp_path):
    (tmp_path / "content/post").mkdir(parents=True)
    (tmp_path / "config/_default").mkdir(parents=True)
    (tmp_path / "config/production").mkdir(parents=True)
    (tmp_path / "config/_default/hugo.toml").write_text('baseURL = "https://x.org/Old-Path/"\ntitle = "A"\n')
    (tmp_path / "config/_default/params.yaml").write_text("mainSections: [post]\ndescription: D\n")
    (tmp_path / "config/_default/languages.json").write_text('{"en": {}, "zh-Hant-TW": {}}')
    (tmp_path / "config/production/params.toml").write_text('description = "P"\n')
    (tmp_path / "hugo.toml").write_text('title = "Root"\n')
    site = Hugo(tmp_path)
    assert (site.title, site.description, site.main_sections) == ("Root", "P", ["post"])
    assert site.base_path == "/Old-Path"  # as written
    assert site._language("index.zh-hant-tw") == ("index", "zh-hant-tw")
    assert site._language("index.en") == ("index", None)  # the default language's
    assert site._language("v1.2") == ("v1.2", None)


def hugo_body(tmp_path, body, config=""):
    """(the body as Hugo's reader converts it, its warnings) in a site of that config."""
    (tmp_path / "content").mkdir(exist_ok=True)
    (tmp_path / "hugo.toml").write_text(config)
    post = Warned()
    return Hugo(tmp_path).convert_body(post, body, Context()), post.warnings


@pytest.mark.parametrize(
    "written, heading, old, warnings",
    [
        ("## Install it {#install}", "## Install it", "install", []),
        ("## Install it {id=\"install\"}", "## Install it", "install", []),
        ("## Install it{#install}", "## Install it", "install", []),
        ("## Install it ## {#install}", "## Install it ##", "install", []),  # after the closing #s
        ("Install it {#install}\n---", "Install it\n---", "install", []),
        ("## Install it {#install .wide data-x=1}", "## Install it", "install",
         ["Goldmark heading attributes {#install .wide data-x=1}: .wide, data-x=1 dropped (a heading "
          "here has only its id)"]),
        ("## Install it {.wide}", "## Install it", None,
         ["Goldmark heading attributes {.wide}: .wide dropped (a heading here has only its id)"]),
    ],
)  # fmt: skip
def test_goldmark_heading_attributes(tmp_path, written, heading, old, warnings):
    converted, warned = hugo_body(tmp_path, written + "\n\n[see](#install)\n")
    body, ids = anchors.settle(converted)
    assert body == heading + "\n\n[see](#install)\n"
    assert ids == ({old: "install-it"} if old else {})
    assert warned == warnings


@pytest.mark.parametrize(
    "text",
    [
        "## Install {x}\n",  # no attribute
        "## Install \\{#install}\n",
        "## Install {#install} and more\n",
        "```\n## Install {#install}\n```\n",
        "Code:\n\n    ## Install {#install}\n",
    ],
)
def test_what_goldmark_read_as_no_attributes_is_left_as_written(tmp_path, text):
    assert hugo_body(tmp_path, text) == (text, [])


def test_goldmark_definition_lists(tmp_path):
    # Goldmark's by default, read as kramdown's (deflists.py)
    converted = hugo_body(tmp_path, "Term\n: Definition\n")
    assert converted == ("<dl>\n<dt>Term</dt>\n<dd>Definition</dd>\n</dl>\n", [])


def test_what_the_config_turns_off_goldmark_never_read(tmp_path):
    config = (
        "[markup.goldmark.parser.attribute]\ntitle = false\n"
        "[markup.goldmark.extensions]\ndefinitionList = false\n"
    )
    text = "## Install it {#install}\n\nTerm\n: Definition\n"
    assert hugo_body(tmp_path, text, config) == (text, [])


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tips - and tricks", "tips-and-tricks"),  # no hyphen beside an explicit one
        ("Q & A: the 2024 edition", "q-a-the-2024-edition"),  # `&`, `:` dropped, one hyphen a run
        ("Ünïcode Café ☕ notes", "ünïcode-café-notes"),  # letters kept, a symbol dropped
        ("  Foo bar  ", "foo-bar"),  # none for leading or trailing spaces
        ("foo- bar", "foo-bar"),
        ("a - & b", "a-b"),
        ("foo--bar", "foo--bar"),  # hyphens written are kept
        ("Foo.Bar/foo_Bar-Foo", "foo.bar/foo_bar-foo"),
        ("fOO,bar:foobAR", "foobarfoobar"),
        ("dot.slash/back\\under_pound#plus+tilde~at@", "dot.slash/back\\under_pound#plus+tilde~at@"),
        ("%20 %2", "%20-2"),  # a `%` before two hex digits only
        ("संस्कृत", "संस्कृत"),  # marks kept
        ("Банковский кассир", "банковский-кассир"),
        ("a\u3000b\u00a0c", "a-b-c"),  # what Go calls a space
        ("a\x1cb", "ab"),  # which U+001C is not (Python's isspace() says it is)
        ("ΟΔΟΣ", "οδοσ"),  # Go's lower case: no final sigma
        ("İstanbul", "istanbul"),  # one character, as Go lower-cases it
    ],
)
def test_hugo_makes_a_path_as_hugo_does(text, expected):
    assert _urlize(text) == expected


def test_hugo_makes_a_path_with_the_config_s_settings():
    assert _urlize("Tips - and Tricks", lowercase=False) == "Tips-and-Tricks"  # disablePathToLower
    assert _urlize("Банковский кассир", remove_accents=True) == "банковскии-кассир"  # removePathAccents
    assert _urlize("Crème Brûlée", lowercase=False, remove_accents=True) == "Creme-Brulee"


def hugo_posts(root, config, files):
    """The Hugo site `root` with `config` (hugo.toml) and `files` ({path under content/: text}),
    and its posts read by the reader: (the reader, {path under content/: Post})."""
    (root / "hugo.toml").write_text(config)
    for path, text in files.items():
        (root / "content" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / path).write_text(text)
    site = Hugo(root)
    posts = {post.rel.removeprefix("content/"): post for post in site.entries() if isinstance(post, Post)}
    return site, posts


def titled(title, extra=""):
    return f'---\ntitle: "{title}"\ndate: 2024-01-02\n{extra}---\nText.\n'


def test_hugo_old_addresses_from_titles_and_file_names_as_hugo_makes_them(tmp_path):
    site, posts = hugo_posts(
        tmp_path,
        'baseURL = "https://x.org/Blog/"\n[permalinks]\nposts = "/:year/:title/"\nessays = "/:slug/"\n',
        {
            "posts/tips.md": titled("Tips - and tricks"),
            "posts/qa.md": titled("Q & A: the 2024 edition"),
            "posts/cafe.md": titled("Ünïcode Café ☕ notes"),
            "posts/cpp.md": titled("C++ tips"),  # Hugo query-unescapes the expanded pattern: + is a space
            "posts/csharp.md": titled("Learning C#"),  # read as a URL: an empty fragment is not written
            "posts/notes.md": titled("C# notes"),  # the `#` kept, escaped in the address
            "essays/slugged.md": titled("T", 'slug: "Tips - and tricks"\n'),
            "essays/titled.md": titled("Q & A"),  # :slug is the title when there is no slug
            "notes/Tips - and Tricks.md": titled("T"),  # the file's path normalized first: spaces hyphens
            "notes/slugged.md": titled("T", 'slug: "Q & A"\n'),
        },
    )
    assert {path: site.old_addresses(post)[0] for path, post in posts.items()} == {
        "posts/tips.md": "/Blog/2024/tips-and-tricks/",
        "posts/qa.md": "/Blog/2024/q-a-the-2024-edition/",
        "posts/cafe.md": "/Blog/2024/ünïcode-café-notes/",
        "posts/cpp.md": "/Blog/2024/c-tips/",
        "posts/csharp.md": "/Blog/2024/learning-c/",
        "posts/notes.md": "/Blog/2024/c%23-notes/",
        "essays/slugged.md": "/Blog/tips-and-tricks/",
        "essays/titled.md": "/Blog/q-a/",
        "notes/Tips - and Tricks.md": "/Blog/notes/tips---and-tricks/",
        "notes/slugged.md": "/Blog/notes/q-a/",
    }


def test_hugo_old_addresses_with_disable_path_to_lower(tmp_path):
    site, posts = hugo_posts(
        tmp_path,
        'disablePathToLower = true\n[permalinks]\nposts = "/:year/:title/"\n',
        {"posts/tips.md": titled("Tips - and Tricks"), "Notes/Tips - and Tricks.md": titled("T")},
    )
    assert site.old_addresses(posts["posts/tips.md"])[0] == "/2024/Tips-and-Tricks/"
    assert site.old_addresses(posts["Notes/Tips - and Tricks.md"])[0] == "/Notes/Tips-and-Tricks/"


POLYGLOT = """baseURL = "https://example.org/old/"
defaultContentLanguage = "en"
defaultContentLanguageInSubdir = true
[languages.en]
contentDir = "content/en"
weight = 1
[languages.de]
contentDir = "content/de"
weight = 2
"""


def test_hugo_default_language_in_a_subdir(tmp_path):
    """With defaultContentLanguageInSubdir the default language's pages are under /en/ as the
    others' are under theirs; a `url` with a leading slash is the site's, one without the
    language's; `aliases` are as written."""
    site, posts = hugo_posts(
        tmp_path,
        POLYGLOT,
        {
            "en/posts/hello.md": titled("Hello", 'aliases: ["/hi/", "hey/"]\n'),
            "en/about.md": titled("About"),
            "en/posts/fixed.md": titled("Fixed", "url: /fixed/\n"),
            "en/posts/mine.md": titled("Mine", "url: mine/\n"),
            "de/posts/hello.md": titled("Hallo"),
            "de/posts/mine.md": titled("Meins", "url: meins/\n"),
            "de/posts/fixed.md": titled("Fest", "url: /fest/\n"),
        },
    )
    assert site.home == "/old/en"
    assert {path: site.old_addresses(post) for path, post in posts.items()} == {
        "en/posts/hello.md": ["/old/en/posts/hello/", "/old/hi/", "/old/en/posts/hey/"],
        "en/about.md": ["/old/en/about/"],
        "en/posts/fixed.md": ["/old/fixed/"],
        "en/posts/mine.md": ["/old/en/mine/"],
        "de/posts/hello.md": ["/old/de/posts/hello/"],
        "de/posts/mine.md": ["/old/de/meins/"],
        "de/posts/fixed.md": ["/old/fest/"],
    }
    (tmp_path / "hugo.toml").write_text(POLYGLOT.replace("InSubdir = true", "InSubdir = false"))
    site = Hugo(tmp_path)
    assert site.home == "/old"
    assert site.old_addresses(posts["en/about.md"]) == ["/old/about/"]
