"""Human pages and the machine surfaces around the API, at the spec's exact paths (no trailing
slash). Every GET route is a distill_path so that the static export (django-distill) freezes it:
`distill_func` lists the parameters, `distill_file` names the file, `shows` what its pages show
(portfolio/shows.py: a build renders a file again when that changed). A page with a markdown form
declares both at once (`with_markdown_form`)."""

from django.urls import register_converter

from portfolio.content.slugs import project_slugs, published_article_slugs, published_page_slugs
from portfolio.shows import CODE, LANGUAGES, LISTS, SITE, Shows, distill_path

from . import assets, cards, languages, markdown_forms, media, series, sitemaps, skills, tags, twins, views
from .feeds import SeriesFeed, SiteFeed, TagFeed
from .negotiation import markdown_name, markdown_path

register_converter(tags.TagConverter, "tag")
register_converter(languages.LanguageConverter, "lang")

app_name = "pages"


def with_markdown_form(route, view, markdown_view, *, name, distill_file, **kwargs):
    """A page's route and its markdown form's (pages/negotiation.py) from one declaration, so the
    two cannot drift apart: the form's address is the page's plus `.md` (`index.md` for the home
    page), its file the page's with `.md` for `.html`, its name the page's plus `-md`, and its
    parameters and `shows` are the page's. The markdown forms of the lists are in
    pages/markdown_forms.py, the items' twins in pages/twins.py; a <slug> holds no dot, so a page's
    route never matches its form's address."""
    return [
        distill_path(route, view, name=name, distill_file=distill_file, **kwargs),
        distill_path(
            markdown_path(f"/{route}").removeprefix("/"),
            markdown_view,
            name=markdown_name(name),
            distill_file=distill_file.removesuffix(".html") + ".md",
            **kwargs,
        ),
    ]


urlpatterns = [
    *with_markdown_form(
        "", views.home, markdown_forms.home, name="home", distill_file="index.html", shows=LISTS
    ),
    *with_markdown_form(
        "projects",
        views.ProjectList.as_view(),
        markdown_forms.ProjectList.as_view(),
        name="projects",
        distill_file="projects.html",
        shows=Shows("projects-page", "1"),
    ),
    # The list's later pages (page 1 is /projects). A project may be called "page": its page is
    # projects/page.html, these are in the folder projects/page/, and the two never meet.
    *with_markdown_form(
        "projects/page/<int:page>",
        views.ProjectList.as_view(),
        markdown_forms.ProjectList.as_view(),
        name="projects-page",
        distill_func=views.later_project_pages,
        distill_file="projects/page/{}.html",
        shows=Shows("projects-page", "{}"),
    ),
    *with_markdown_form(
        "projects/<slug:slug>",
        views.ProjectPage.as_view(),
        twins.ProjectTwin.as_view(),
        name="project",
        distill_func=project_slugs,
        distill_file="projects/{}.html",
        shows=Shows("projects", "{}"),
    ),
    *with_markdown_form(
        "articles",
        views.ArticleList.as_view(),
        markdown_forms.ArticleList.as_view(),
        name="articles",
        distill_file="articles.html",
        shows=Shows("articles-page", "1"),
    ),
    *with_markdown_form(
        "articles/page/<int:page>",
        views.ArticleList.as_view(),
        markdown_forms.ArticleList.as_view(),
        name="articles-page",
        distill_func=views.later_article_pages,
        distill_file="articles/page/{}.html",
        shows=Shows("articles-page", "{}"),
    ),
    *with_markdown_form(
        "articles/<slug:slug>",
        views.ArticlePage.as_view(),
        twins.ArticleTwin.as_view(),
        name="article",
        distill_func=published_article_slugs,
        distill_file="articles/{}.html",
        shows=Shows("articles", "{}"),
    ),
    # The tags (pages/tags.py): their index, each tag's pages (as the lists') and its feed. A tag's
    # slug may be in any script: the files are named with it, the addresses percent-encode it.
    *with_markdown_form(
        "tags",
        views.tag_index,
        markdown_forms.tag_index,
        name="tags",
        distill_file="tags.html",
        shows=Shows("tags"),
    ),
    *with_markdown_form(
        "tags/<tag:slug>",
        views.TagPage.as_view(),
        markdown_forms.TagPage.as_view(),
        name="tag",
        distill_func=tags.tag_slugs,
        distill_file="tags/{}.html",
        shows=Shows("tag-page", "{}:1"),
    ),
    *with_markdown_form(
        "tags/<tag:slug>/page/<int:page>",
        views.TagPage.as_view(),
        markdown_forms.TagPage.as_view(),
        name="tag-page",
        distill_func=views.later_tag_pages,
        distill_file="tags/{}/page/{}.html",
        shows=Shows("tag-page", "{}:{}"),
    ),
    distill_path(
        "tags/<tag:slug>/feed.xml",
        TagFeed(),
        name="tag-feed",
        distill_func=tags.tag_slugs,
        distill_file="tags/{}/feed.xml",
        shows=Shows("tag-feed", "{}"),
    ),
    # The series (pages/series.py): each one's page, its markdown form and its feed, at the
    # addresses a tag's have under /series/ (the slug made as a tag's).
    *with_markdown_form(
        "series/<tag:slug>",
        views.SeriesPage.as_view(),
        markdown_forms.SeriesPage.as_view(),
        name="series",
        distill_func=series.series_slugs,
        distill_file="series/{}.html",
        shows=Shows("series-page", "{}"),
    ),
    distill_path(
        "series/<tag:slug>/feed.xml",
        SeriesFeed(),
        name="series-feed",
        distill_func=series.series_slugs,
        distill_file="series/{}/feed.xml",
        shows=Shows("series-feed", "{}"),
    ),
    *with_markdown_form(
        "stack",
        views.stack,
        markdown_forms.stack,
        name="stack",
        distill_file="stack.html",
        shows=Shows("stack"),
    ),
    distill_path(
        "developers", views.developers, name="developers", distill_file="developers.html", shows=LISTS
    ),
    # Searched in the browser from the index the build writes (portfolio/export/search_index.py).
    distill_path("search", views.search, name="search", distill_file="search.html", shows=SITE),
    # The 404 page as a file for the static host; handler404 (portfolio/urls.py) serves the same
    # template to anything the authoring server does not know.
    distill_path(
        "404",
        views.not_found_page,
        name="not-found",
        distill_file="404.html",
        distill_status_codes=(404,),
        shows=SITE,
    ),
    distill_path(
        "llms.txt", views.LlmsTxtView.as_view(), name="llms-txt", distill_file="llms.txt", shows=LISTS
    ),
    distill_path(
        "llms-full.txt",
        twins.LlmsFull.as_view(),
        name="llms-full",
        distill_file="llms-full.txt",
        shows=Shows("llms-full", "1"),
    ),
    # The parts after the first of a large site's full text (pages/twins.py, llms_full_parts).
    distill_path(
        "llms-full-<int:part>.txt",
        twins.LlmsFull.as_view(),
        name="llms-full-part",
        distill_func=twins.later_parts,
        distill_file="llms-full-{}.txt",
        shows=Shows("llms-full", "{}"),
    ),
    distill_path("robots.txt", views.robots_txt, name="robots-txt", distill_file="robots.txt", shows=SITE),
    # The agent skills index and its one skill (pages/skills.py).
    distill_path(
        ".well-known/agent-skills/index.json",
        skills.index,
        name="agent-skills",
        distill_file=".well-known/agent-skills/index.json",
        shows=SITE,
    ),
    distill_path(
        ".well-known/agent-skills/<slug:name>/SKILL.md",
        skills.skill_file,
        name="agent-skill",
        distill_func=skills.skill_names,
        distill_file=".well-known/agent-skills/{}/SKILL.md",
        shows=SITE,
    ),
    # At the root, where browsers and crawlers ask for them without reading a page.
    distill_path("favicon.ico", assets.favicon, name="favicon", distill_file="favicon.ico", shows=SITE),
    distill_path(
        "site.webmanifest", views.web_manifest, name="manifest", distill_file="site.webmanifest", shows=SITE
    ),
    distill_path("feed.xml", SiteFeed(), name="feed", distill_file="feed.xml", shows=Shows("feed")),
    distill_path(
        "sitemap-index.xml",
        sitemaps.index,
        name="sitemap-index",
        distill_file="sitemap-index.xml",
        shows=LISTS,
    ),
    distill_path(
        "sitemap-<slug:section>.xml",
        sitemaps.section,
        name="sitemap",
        distill_func=sitemaps.section_names,
        distill_file="sitemap-{}.xml",
        shows=Shows("sitemap", "{}"),
    ),
    # The social cards of the items without their own image (pages/cards.py): each shows its own
    # item's title and date and the site's name, so an edit makes that item's card alone again.
    distill_path(
        "cards/projects/<slug:slug>.png",
        cards.ProjectCard.as_view(),
        name="project-card",
        distill_func=cards.project_card_slugs,
        distill_file="cards/projects/{}.png",
        shows=Shows("card", "projects:{}"),
    ),
    distill_path(
        "cards/articles/<slug:slug>.png",
        cards.ArticleCard.as_view(),
        name="article-card",
        distill_func=cards.article_card_slugs,
        distill_file="cards/articles/{}.png",
        shows=Shows("card", "articles:{}"),
    ),
    distill_path(
        "media/<path:path>",
        media.MediaView.as_view(),
        name="media",
        distill_func=media.published_media,
        distill_file="media/{}",
        shows=Shows("media", "{}"),
    ),
    distill_path(
        "static/<path:path>",
        assets.serve,
        name="static",
        distill_func=assets.project_static_files,
        distill_file="static/{}",
        shows=CODE,
    ),
    # The standalone pages (content/pages/<slug>.md) at the site's top level, last: every address
    # above is the site's own, and the importer refuses a page slug that is one of them
    # (portfolio.content.aliases.page_slug_problem). portfolio/urls.py includes these routes after
    # the other apps', whose addresses (/contact) a page's route would otherwise answer first.
    *with_markdown_form(
        "<slug:slug>",
        views.StandalonePage.as_view(),
        twins.PageTwin.as_view(),
        name="page",
        distill_func=published_page_slugs,
        distill_file="{}.html",
        shows=Shows("pages", "{}"),
    ),
    # The site's other languages (site.yaml's `languages` after the first, pages/languages.py),
    # under /<lang>/, last: every address above is the default language's, where it always was.
    # Each shows the translations and their originals whole (`languages`).
    *(
        distill_path(
            route, view, name=f"lang-{name}", distill_func=params, distill_file=file, shows=LANGUAGES
        )
        for route, view, name, params, file in (
            ("<lang:lang>/", languages.home, "home", languages.language_params, "{}/index.html"),
            (
                "<lang:lang>/projects",
                languages.ProjectList.as_view(),
                "projects",
                languages.language_params,
                "{}/projects.html",
            ),
            # Its lists' and tags' later pages, at the default language's addresses under /<lang>/.
            (
                "<lang:lang>/projects/page/<int:page>",
                languages.ProjectList.as_view(),
                "projects-page",
                languages.later_list_pages("projects"),
                "{}/projects/page/{}.html",
            ),
            (
                "<lang:lang>/projects/<slug:slug>",
                languages.ProjectTranslation.as_view(),
                "project",
                languages.translated_slugs("projects"),
                "{}/projects/{}.html",
            ),
            (
                "<lang:lang>/projects/<slug:slug>.md",
                languages.ProjectTwin.as_view(),
                "project-md",
                languages.translated_slugs("projects"),
                "{}/projects/{}.md",
            ),
            (
                "<lang:lang>/articles",
                languages.ArticleList.as_view(),
                "articles",
                languages.language_params,
                "{}/articles.html",
            ),
            (
                "<lang:lang>/articles/page/<int:page>",
                languages.ArticleList.as_view(),
                "articles-page",
                languages.later_list_pages("articles"),
                "{}/articles/page/{}.html",
            ),
            (
                "<lang:lang>/articles/<slug:slug>",
                languages.ArticleTranslation.as_view(),
                "article",
                languages.translated_slugs("articles"),
                "{}/articles/{}.html",
            ),
            (
                "<lang:lang>/articles/<slug:slug>.md",
                languages.ArticleTwin.as_view(),
                "article-md",
                languages.translated_slugs("articles"),
                "{}/articles/{}.md",
            ),
            ("<lang:lang>/tags", languages.tag_index, "tags", languages.language_params, "{}/tags.html"),
            (
                "<lang:lang>/tags/<tag:slug>",
                languages.TagPage.as_view(),
                "tag",
                languages.language_tag_slugs,
                "{}/tags/{}.html",
            ),
            (
                "<lang:lang>/tags/<tag:slug>/page/<int:page>",
                languages.TagPage.as_view(),
                "tag-page",
                languages.later_tag_pages,
                "{}/tags/{}/page/{}.html",
            ),
            (
                "<lang:lang>/tags/<tag:slug>/feed.xml",
                languages.LanguageTagFeed(),
                "tag-feed",
                languages.language_tag_slugs,
                "{}/tags/{}/feed.xml",
            ),
            ("<lang:lang>/stack", languages.stack, "stack", languages.stack_languages, "{}/stack.html"),
            (
                "<lang:lang>/search",
                languages.search,
                "search",
                languages.language_params,
                "{}/search.html",
            ),
            (
                "<lang:lang>/feed.xml",
                languages.LanguageFeed(),
                "feed",
                languages.language_params,
                "{}/feed.xml",
            ),
            (
                "<lang:lang>/<slug:slug>",
                languages.PageTranslation.as_view(),
                "page",
                languages.translated_slugs("pages"),
                "{}/{}.html",
            ),
            (
                "<lang:lang>/<slug:slug>.md",
                languages.PageTwin.as_view(),
                "page-md",
                languages.translated_slugs("pages"),
                "{}/{}.md",
            ),
        )
    ),
    *(
        distill_path(
            f"cards/<lang:lang>/{kind}s/<slug:slug>.png",
            view,
            name=f"lang-{kind}-card",
            distill_func=languages.card_slugs(f"{kind}s"),
            distill_file=f"cards/{{}}/{kind}s/{{}}.png",
            shows=LANGUAGES,
        )
        for kind, view in (
            ("project", languages.ProjectCard.as_view()),
            ("article", languages.ArticleCard.as_view()),
        )
    ),
    distill_path(
        "<lang:lang>/404",
        languages.not_found_page,
        name="lang-not-found",
        distill_func=languages.language_params,
        distill_file="{}/404.html",
        distill_status_codes=(404,),
        shows=LANGUAGES,
    ),
]
