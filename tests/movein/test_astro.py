"""An Astro site's old addresses as its astro.config placed them: under its `base` (a GitHub
project site's `/my-blog`), in the form `build.format` and `trailingSlash` gave them; links
between its posts found with the base written or left out, as Jekyll's baseurl is."""

import pytest

from portfolio.movein import tsconfig
from portfolio.movein.astro import Astro

from .test_links import PNG, body, moved, write

ROUTE = "---\nconst posts = await getCollection('blog');\n---\n"


def site(root, config, route="src/pages/blog/[...slug].astro", files=None):
    """An Astro blog with two posts, a French translation, two pages and an image in public/."""
    return write(
        root,
        {
            "astro.config.mjs": "import { defineConfig } from 'astro/config';\n" + config,
            route: ROUTE,
            "src/content/blog/en/kiln-log.md": "---\ntitle: Kiln log\n---\nCone 6.\n",
            "src/content/blog/en/glazes/index.md": "---\ntitle: Glazes\n---\nCeladon.\n",
            "src/content/blog/fr/kiln-log.md": "---\ntitle: Journal du four\n---\nCône 6.\n",
            "src/pages/about.md": "---\ntitle: About\n---\nPots.\n",
            "src/pages/studio/index.md": "---\ntitle: Studio\n---\nA shed.\n",
            "public/shelf.png": PNG,
            **(files or {}),
        },
    )


def addresses(root):
    """{source rel: its old addresses} of every post and page the reader finds."""
    reader = Astro(root)
    return {entry.rel: reader.old_addresses(entry) for entry in reader.entries() if hasattr(entry, "fields")}


I18N = "i18n: { defaultLocale: 'en', locales: ['en', 'fr'] }"


@pytest.mark.parametrize("base", ["'/my-blog'", '"my-blog/"', "`/my-blog/`", "'my-blog'"])
def test_every_old_address_is_under_the_base_however_it_is_written(tmp_path, base):
    root = site(tmp_path, f"export default defineConfig({{\n  base: {base},\n  {I18N},\n}});\n")
    assert addresses(root) == {
        "src/content/blog/en/glazes/index.md": ["/my-blog/blog/glazes/"],
        "src/content/blog/en/kiln-log.md": ["/my-blog/blog/kiln-log/"],
        "src/content/blog/fr/kiln-log.md": ["/my-blog/fr/blog/kiln-log/"],
        "src/pages/about.md": ["/my-blog/about/"],
        "src/pages/studio/index.md": ["/my-blog/studio/"],
    }
    assert Astro(root).notes == []


@pytest.mark.parametrize(
    "options, route, post, about, studio",
    [
        ("", "[...slug].astro", "/b/blog/kiln-log/", "/b/about/", "/b/studio/"),
        ("trailingSlash: 'always',", "[...slug].astro", "/b/blog/kiln-log/", "/b/about/", "/b/studio/"),
        ("trailingSlash: 'never',", "[...slug].astro", "/b/blog/kiln-log", "/b/about", "/b/studio"),
        ("build: { format: 'file' },", "[...slug].astro", "/b/blog/kiln-log.html", "/b/about.html",
         "/b/studio.html"),
        ("build: { format: 'file' }, trailingSlash: 'always',", "[...slug]/index.astro",
         "/b/blog/kiln-log.html", "/b/about.html", "/b/studio.html"),
        # `preserve`: a source that is no index is its own .html, an index its folder.
        ("build: { format: 'preserve' },", "[...slug].astro", "/b/blog/kiln-log.html", "/b/about.html",
         "/b/studio/"),
        ("build: { format: 'preserve' }, trailingSlash: 'never',", "[...slug]/index.astro",
         "/b/blog/kiln-log", "/b/about.html", "/b/studio"),
    ],
)  # fmt: skip
def test_the_form_of_each_address_is_the_one_the_build_gave_it(tmp_path, options, route, post, about, studio):
    config = f"const BASE = '/b/';\nexport default defineConfig({{ base: BASE, {options} {I18N} }});\n"
    root = site(tmp_path, config, route=f"src/pages/blog/{route}")
    found = addresses(root)
    assert found["src/content/blog/en/kiln-log.md"] == [post]
    assert (found["src/pages/about.md"], found["src/pages/studio/index.md"]) == ([about], [studio])


def test_astropapers_index_route_and_a_slug_are_placed_so_too(tmp_path):
    root = write(
        tmp_path,
        {
            "astro.config.ts": "export default defineConfig({\n  base: '/paper',\n"
            "  build: { format: 'preserve' },\n});\n",
            "src/data/blog/_drafts/Wheel Notes.md": "---\ntitle: Wheel\n---\nCentering.\n",
            "src/data/blog/trimming.md": "---\ntitle: Trimming\nslug: trim-feet\n---\nFeet.\n",
        },
    )
    assert addresses(root) == {
        "src/data/blog/_drafts/Wheel Notes.md": ["/paper/posts/wheel-notes/"],  # [...slug]/index.astro
        "src/data/blog/trimming.md": ["/paper/posts/trim-feet/"],
    }


def test_options_that_cannot_be_read_are_astros_defaults_with_a_note(tmp_path):
    config = (
        "const config = {\n  site: 'https://pots.example.org/wares/',\n"
        "  base: process.env.BASE_PATH,\n  trailingSlash: 'sometimes',\n  build: settings,\n};\n"
        "export default defineConfig(config);\n"
    )
    root = site(tmp_path, config)
    reader = Astro(root)
    assert addresses(root)["src/pages/about.md"] == ["/about/"]
    assert reader.notes == [
        "astro.config.mjs: `build.format` cannot be read without running it: read as Astro's default, "
        "'directory'",
        "astro.config.mjs: `trailingSlash` is 'sometimes': read as Astro's default, 'ignore'",
        "astro.config.mjs: `base` cannot be read without running it: the old addresses are read as "
        "served at the root; put the base path before them by hand if the site had one",
        "astro.config.mjs: `site` has the path /wares, which Astro does not serve the pages under "
        "(`base` alone places them: none here); the old addresses are read so",
    ]


def test_sites_path_is_no_base_path(tmp_path):
    """Astro places the pages under `base` alone: `site`'s path leaves them at the root."""
    root = site(tmp_path, "export default defineConfig({ site: 'https://user.github.io/my-blog/' });\n")
    assert addresses(root)["src/content/blog/en/kiln-log.md"] == ["/blog/en/kiln-log/"]
    both = "export default defineConfig({ site: 'https://user.github.io/my-blog', base: '/my-blog/' });\n"
    write(tmp_path, {"astro.config.mjs": both})
    assert addresses(tmp_path)["src/content/blog/en/kiln-log.md"] == ["/my-blog/blog/en/kiln-log/"]
    assert Astro(tmp_path).notes == []


def test_the_config_objects_options_alone_are_read():
    text = """
        const base = "/kiln/";
        export default defineConfig({
          base, // the same `const`
          integrations: [sitemap({ base: "/not-this/" })],
          vite: { base: "/nor-this/", build: { format: "nope" } },
          build: { assets: "_assets", format: `file` },
        });
    """
    options = tsconfig.config_options(text, ("base", "site", "trailingSlash", "build.format"))
    assert options == {"base": "/kiln/", "build.format": "file"}
    assert tsconfig.config_options("export default { base: '/a' }", ("base",)) == {"base": "/a"}
    assert tsconfig.config_options("module.exports = { base: '/a' }", ("base",)) == {}


def test_links_written_with_the_base_or_without_it_are_found(tmp_path):
    config = "export default defineConfig({ site: 'https://pots.example.org', base: '/my-blog' });\n"
    root = site(tmp_path / "old", config)
    write(
        root,
        {
            "src/content/blog/en/links.md": (
                "---\ntitle: Links\ndate: 2024-05-01\n---\n"
                "1. [a](/my-blog/blog/en/kiln-log/#cone)\n"
                "2. [b](/blog/en/kiln-log/)\n"
                "3. [c](https://pots.example.org/my-blog/blog/en/glazes/)\n"
                "4. [d](/my-blog/about/) [e](/studio/)\n"
                "5. ![f](/my-blog/shelf.png) ![g](/shelf.png)\n"
                "6. [home](/my-blog/) [tag](/my-blog/tags/raku/)\n"
                "7. [h](../glazes/)\n"
            ),
        },
    )
    converted, warnings = moved("astro", root)["src/content/blog/en/links.md"]
    assert body(converted) == (
        "1. [a](kiln-log.md#cone)\n"
        "2. [b](kiln-log.md)\n"
        "3. [c](glazes.md)\n"
        "4. [d](../pages/about.md) [e](../pages/studio.md)\n"
        "5. ![f](../media/links/shelf.png) ![g](../media/links/shelf.png)\n"
        "6. [home](/) [tag](/tags/raku/)\n"
        "7. [h](glazes.md)\n"
    )
    assert warnings == []


def test_links_to_html_addresses_of_the_file_format_are_found(tmp_path):
    config = "export default defineConfig({ base: 'my-blog', build: { format: 'file' } });\n"
    root = site(tmp_path / "old", config)
    write(
        root,
        {
            "src/content/blog/en/links.md": (
                "---\ntitle: Links\ndate: 2024-05-01\n---\n"
                "[a](/my-blog/blog/en/kiln-log.html) [b](/blog/en/glazes.html) [c](kiln-log.html) "
                "[d](/my-blog/about.html)\n"
            ),
        },
    )
    converted, warnings = moved("astro", root)["src/content/blog/en/links.md"]
    assert body(converted) == "[a](kiln-log.md) [b](glazes.md) [c](kiln-log.md) [d](../pages/about.md)\n"
    assert warnings == []
