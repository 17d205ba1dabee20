"""The human pages and llms.txt. Pages render the HTML stored at import (body_html): markdown is
never rendered on request. Articles are read only through Article.objects.published(), except
one article's page on an authoring server started with SHOW_DRAFTS=1."""

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views import View
from django.views.generic import DetailView, TemplateView
from django.views.static import serve as static_serve

from portfolio.batch import Batched
from portfolio.content.models import Article, Page, Project, Site, Stack
from portfolio.content.rules import CONTENT_SIGNALS

from . import series, tags
from .assets import url as static
from .twins import llms_full_parts

# Lists load only what they show: never the bodies (issue 7: thousands of articles).
PROJECT_CARD = ("slug", "title", "tagline", "status", "stack", "featured", "date", "image")
ARTICLE_ITEM = ("slug", "title", "description", "date", "tags", "image")
LATEST_ARTICLES = 5


def home_context():
    return {
        "featured": Project.objects.filter(featured=True).only(*PROJECT_CARD),
        "articles": Article.objects.published().only(*ARTICLE_ITEM)[:LATEST_ARTICLES],
        "stack": Stack.objects.only("current_focus").first(),
        "json_twin": "/api/v1.json",
    }


def home(request):
    return render(request, "pages/home.html", home_context())


class ListPage(View):
    """A page of a list, newest first: settings.LIST_PAGE_SIZE items each (the projects, the
    published articles, a tag's items). Page 1 is the list's own address (route `name`), the later
    ones `<name>-page`; page 1 under the later pages' route, and pages past the last, are not
    found. `items()` is what is paginated, `shown()` what a page shows of its slice, under the
    name `object_name` (`name` unless told)."""

    template_name = name = object_name = json_twin = None
    content_type = None  # the template's (pages/markdown_forms.py gives text/markdown)

    def items(self):
        raise NotImplementedError

    def shown(self, object_list):
        return object_list

    def page_url(self, number):
        kwargs = {key: value for key, value in self.kwargs.items() if key != "page"}
        if number == 1:
            return reverse(f"pages:{self.name}", kwargs=kwargs)
        return reverse(f"pages:{self.name}-page", kwargs={**kwargs, "page": number})

    def context(self, number):
        paginator = list_paginator(self.items())
        if number < 1 or number > paginator.num_pages:
            raise Http404("No such page")
        page = paginator.page(number)
        return {
            self.object_name or self.name: self.shown(page.object_list),
            "page_number": number,
            "page_count": paginator.num_pages,
            "prev_url": self.page_url(number - 1) if page.has_previous() else None,
            "next_url": self.page_url(number + 1) if page.has_next() else None,
            "json_twin": self.json_twin,
        }

    def get(self, request, page=None, **kwargs):
        if page is not None and page < 2:  # page 1 has one address, the list's own
            raise Http404("Page 1 is the list's own address")
        context = self.context(1 if page is None else page)
        return render(request, self.template_name, context, content_type=self.content_type)


def list_paginator(items):
    return Paginator(items, settings.LIST_PAGE_SIZE)


def page_numbers(count):
    """The numbers of the pages that a list of `count` items fills."""
    return list_paginator(range(count)).page_range


def later_pages(items):
    """The numbers of a list's pages after the first, as django-distill's parameters."""
    yield from (str(number) for number in range(2, list_paginator(items).num_pages + 1))


def later_project_pages():
    return later_pages(Project.objects.all())


def later_article_pages():
    return later_pages(Article.objects.published())


def later_tag_pages():
    """(tag slug, page number) of every tag's pages after the first."""
    for found in tags.tags():
        yield from ((found.slug, str(number)) for number in page_numbers(found.count)[1:])


class ProjectList(ListPage):
    template_name = "pages/project_list.html"
    name = "projects"
    json_twin = "/api/v1/projects.json"

    def items(self):
        return Project.objects.only(*PROJECT_CARD)


class ItemPage(DetailView):
    """One project's or article's page."""

    json_twin = None  # the item's JSON address, with a {slug} placeholder

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            json_twin=self.json_twin.format(slug=self.object.slug),
            markdown_twin=self.request.path + ".md",  # pages/twins.py
            **kwargs,
        )


class ProjectPage(Batched, ItemPage):
    queryset = Project.objects.defer("body")
    template_name = "pages/project_detail.html"
    json_twin = "/api/v1/projects/{slug}.json"


class ArticleList(ListPage):
    template_name = "pages/article_list.html"
    name = "articles"
    json_twin = "/api/v1/articles.json"

    def items(self):
        return Article.objects.published().only(*ARTICLE_ITEM)


class ArticlePage(Batched, ItemPage):
    template_name = "pages/article_detail.html"
    json_twin = "/api/v1/articles/{slug}.json"

    def get_queryset(self):
        # SHOW_DRAFTS: a writer previews a draft at its address (the build turns the setting off).
        articles = Article.objects.all() if settings.SHOW_DRAFTS else Article.objects.published()
        return articles.defer("body").with_neighbours()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.object.draft:
            context["json_twin"] = None  # the API never serves a draft
        else:  # a draft is no part of a series and has no related articles: it is in no index
            context["series_box"] = series.series_box(self.object.slug)
            context["related"] = series.related(self.object.slug)
        return context


class StandalonePage(Batched, DetailView):
    """A standalone page (content/pages/<slug>.md) at /<slug>: its title, its body, no date. Not an
    item of a list: no JSON document (the API's are the spec's), a markdown twin at its address
    plus `.md` (pages/twins.py)."""

    template_name = "pages/page_detail.html"
    context_object_name = "page"

    def get_queryset(self):
        # SHOW_DRAFTS: a writer previews a draft at its address (the build turns the setting off).
        pages = Page.objects.all() if settings.SHOW_DRAFTS else Page.objects.published()
        return pages.defer("body")

    def get_context_data(self, **kwargs):
        return super().get_context_data(markdown_twin=self.request.path + ".md", **kwargs)


def tag_index_context():
    return {"tags": tags.tags()}


def tag_index(request):
    """/tags: every tag with how many projects and articles have it."""
    return render(request, "pages/tags.html", tag_index_context())


class TagPage(ListPage):
    """A tag's projects and published articles, newest first (then by slug), in pages."""

    template_name = "pages/tag.html"
    name = "tag"
    object_name = "items"

    def items(self):
        return tags.tagged(self.tag.slug)

    def shown(self, object_list):
        return tags.items_of(list(object_list), PROJECT_CARD, ARTICLE_ITEM)

    def find_tag(self):
        """The tag shown, or None (another language's tag page finds its language's)."""
        return tags.tag(self.kwargs["slug"])

    def context(self, number):
        self.tag = self.find_tag()
        if self.tag is None:
            raise Http404("No such tag")
        return {**super().context(number), "tag": self.tag}


class SeriesPage(View):
    """A series' published parts, in its order, on one page."""

    template_name = "pages/series.html"
    content_type = None  # the template's (pages/markdown_forms.py gives text/markdown)

    def get(self, request, slug):
        found = series.series(slug)
        if found is None:
            raise Http404("No such series")
        context = {"series": found, "parts": series.parts_of(found, ARTICLE_ITEM)}
        return render(request, self.template_name, context, content_type=self.content_type)


def stack_context():
    profile = Stack.objects.prefetch_related("models", "daily_drivers").first()
    return {"stack": profile, "json_twin": "/api/v1/stack.json"}


def stack(request):
    return render(request, "pages/stack.html", stack_context())


def developers(request):
    context = {
        # Real slugs make the curl examples work when pasted.
        "example_project": Project.objects.values_list("slug", flat=True).first(),
        "example_article": Article.objects.published().values_list("slug", flat=True).first(),
        "json_twin": "/openapi.json",
    }
    return render(request, "pages/developers.html", context)


def search(request):
    """/search?q=...: the same page for every query. pages/static/pages/search.js reads `q` and
    searches the index the build writes (portfolio/export/search_index.py) in the browser."""
    return render(request, "pages/search.html")


def search_index_file(request, path):
    """/pagefind/<path> on the authoring server: a file of the last build's search index (in
    SEARCH_BUILD_DIR). Before the first build, the list of its bundles is empty, and /search
    says there is no index yet."""
    folder = settings.SEARCH_BUILD_DIR / "pagefind"
    if path == "bundles.json" and not (folder / path).is_file():
        return JsonResponse({"bundles": []})
    return static_serve(request, path, document_root=folder)


# The page background of each theme (site.css's --bg; base.html's theme-color meta tags).
THEME_COLOR = {"light": "#fcfcfd", "dark": "#11161d"}


def web_manifest(request):
    """/site.webmanifest: the name and icons a phone uses when the site is added to its home screen."""
    site = Site.load()
    icons = [
        {"src": static("pages/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("pages/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("pages/icon-512.png"), "sizes": "512x512", "type": "image/png"},
    ]
    manifest = {
        "name": site.title,
        "short_name": site.title,
        "description": site.description,
        "start_url": "/",
        "display": "standalone",
        "background_color": THEME_COLOR["light"],
        "theme_color": THEME_COLOR["light"],
        "icons": icons,
    }
    return JsonResponse(manifest, content_type="application/manifest+json", json_dumps_params={"indent": 2})


def not_found(request, exception=None):
    """handler404, and the /404 route the static export freezes as 404.html. The page asked for
    has no versions in other languages (pages.context_processors.versions): its alternates and
    offers would name the same missing address in them."""
    request.not_found = True
    return render(request, "pages/404.html", status=404)


def not_found_page(request):
    return not_found(request)


class LlmsTxtView(TemplateView):
    template_name = "pages/llms.txt"
    content_type = "text/plain; charset=utf-8"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            projects=Project.objects.only("slug", "title", "tagline"),
            articles=Article.objects.published().only("slug", "title", "description"),
            standalone_pages=Page.objects.published().only("slug", "title", "description"),
            llms_full_parts=len(llms_full_parts()),
            tags=tags.tags(),
            translations=llms_translations(),
            **kwargs,
        )


def llms_translations():
    """[(Language, [(item, its original's address)])] of the site's other languages, for
    llms.txt: each translated project, article and page (none with one language)."""
    from portfolio.content.languages import item_address, languages, translated_items

    default, *others = languages()
    return [
        (lang, [
            (item, item_address(kind, item.slug, default.code))
            for kind in ("projects", "articles", "pages")
            for item in translated_items(kind, lang.code)
        ])
        for lang in others
    ]  # fmt: skip


# robots.txt's AI groups. Crawlers that collect training data (each vendor's own token for it),
# refused when the site says ai-train=no ...
TRAINING_CRAWLERS = ["GPTBot", "ClaudeBot", "anthropic-ai", "CCBot", "Google-Extended", "Applebot-Extended",
                     "Bytespider", "meta-externalagent"]  # fmt: skip
# ... and the agents that search or fetch for a person, which stay allowed.
ASSISTANTS = ["OAI-SearchBot", "ChatGPT-User", "Claude-User", "Claude-SearchBot", "PerplexityBot",
              "Perplexity-User"]  # fmt: skip


def robots_txt(request):
    """/robots.txt: everything allowed, the owner's Content-Signal (site.yaml's contentSignals,
    contentsignals.org) in the `*` group, and the training crawlers refused when ai-train is no."""
    signals = Site.load().content_signals or CONTENT_SIGNALS
    context = {
        "signals": ", ".join(f"{key}={signals.get(key, yes_no)}" for key, yes_no in CONTENT_SIGNALS.items()),
        "assistants": ASSISTANTS,
        "training": TRAINING_CRAWLERS if signals.get("ai-train", "no") == "no" else [],
    }
    return render(request, "pages/robots.txt", context, content_type="text/plain; charset=utf-8")
