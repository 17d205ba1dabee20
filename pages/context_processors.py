import copy
from functools import cache

from django.conf import settings
from django.db import DatabaseError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from portfolio.content import languages
from portfolio.content.models import Page, Site, Translation

LINKS = {
    "home": "pages:home",
    "projects": "pages:projects",
    "articles": "pages:articles",
    "tags": "pages:tags",
    "stack": "pages:stack",
    "developers": "pages:developers",
    "search": "pages:search",
    "contact": "contact:form",
    "feed": "pages:feed",
    "llms_txt": "pages:llms-txt",
    "sitemap": "pages:sitemap-index",
    "api": "api:index-json",  # the .json form: it works on every host and local server
    "favicon": "pages:favicon",
    "manifest": "pages:manifest",
}


@cache
def _links():
    return {key: reverse(name, urlconf=settings.SITE_URLCONF) for key, name in LINKS.items()}


def links(request):
    """`links`: the addresses every page's header and footer show, reversed once per process
    rather than a dozen times per page (a measurable share of a 10,000-page build). They are
    paths, so they work on whichever server serves the page (authoring, preview, production);
    only on the contact service, another host with another urlconf, do they point at the site."""
    if settings.ROOT_URLCONF == settings.SITE_URLCONF:
        return {"links": _links()}
    base_url = Site.load().base_url
    return {"links": {key: base_url + path for key, path in _links().items()}}


@Site.build_cached  # a build's every page shows them: read once while it renders
def nav_pages():
    """[Page] of the published standalone pages with `nav: true`, in their `order`."""
    return list(Page.objects.in_nav().only("slug", "title"))


@Site.build_cached
def nav_page_translations():
    """{language: {slug: title}} of the published translations of the pages in the header."""
    found = {}
    rows = Translation.objects.published().filter(kind="pages", slug__in=[page.slug for page in nav_pages()])
    for slug, code, title in rows.values_list("slug", "language", "title"):
        found.setdefault(code, {})[slug] = title
    return found


def navigation(request):
    """`nav_pages` ([(title, address, written_in)]): the standalone pages the header links to,
    after its own links; on another language's page, its translation where there is one, else
    the default language's page, marked as written in it (`written_in`, else None). The contact
    service's pages have none (its database holds no content; it has its own context processor)."""
    current = getattr(request, "page_language", None)
    if current is None or current.default:
        return {"nav_pages": [(page.title, page.get_absolute_url(), None) for page in nav_pages()]}
    translated = nav_page_translations().get(current.code, {})
    default = languages.languages()[0]
    return {
        "nav_pages": [
            (
                translated[page.slug] or page.title,
                languages.item_address("pages", page.slug, current.code),
                None,
            )
            if page.slug in translated
            else (page.title, page.get_absolute_url(), default)
            for page in nav_pages()
        ]
    }


def readers(request):
    """`analytics` (site.yaml's provider's script: its address and data attributes, or None) and
    `giscus_origin` (where the comments load from), for base.html and the article page."""
    from .security import analytics_script, giscus_origin

    try:
        found = analytics_script(Site.load())
    except Site.DoesNotExist:
        found = None
    return {"analytics": found[:2] if found else None, "giscus_origin": giscus_origin()}


# The pages that every language has, by route name: the same page in each.
EVERY_LANGUAGE = ("home", "projects", "articles", "tags", "search")
ITEMS = {"project": "projects", "article": "articles", "page": "pages"}
# A list's later pages (/projects/page/2), by route name: its first page's route. Page n of a list
# in one language is page n of it in another, where that one's list is as long.
LATER_PAGES = {"projects-page": "projects", "articles-page": "articles", "tag-page": "tag"}
# Where the switcher leads in a language without a version of the page: the page above it (a
# later page's list, a tag's index), the nearest that language has, else its home.
ABOVE = {**LATER_PAGES, "tag": "tags"}


def shown_route(request):
    """(the default language's route name, its kwargs) of the page `request` shows, or None."""
    match = request.resolver_match
    if match is None or getattr(request, "not_found", False):  # a 404 page (views.not_found)
        return None
    return (match.url_name or "").removeprefix("lang-"), match.kwargs


def versions(request, every):
    """[(Language, path)] of the page `request` shows in each language that has it (itself
    included), in site.yaml's order: the same list on every version, so the links are reciprocal."""
    shown = shown_route(request)
    return versions_of(*shown, every) if shown else []


def nearest_versions(request, every):
    """[(Language, path)] of the pages above the one `request` shows (ABOVE), the farthest first,
    in each language that has them: where the switcher leads in a language without its version."""
    shown = shown_route(request)
    found = []
    name, kwargs = shown or ("", {})
    while name in ABOVE:
        name = ABOVE[name]
        kwargs = {"slug": kwargs["slug"]} if name == "tag" else {}
        found = versions_of(name, kwargs, every) + found
    return found


def versions_of(name, kwargs, every):
    """versions() of the page of route `name` (the default language's name) with `kwargs`."""
    from .languages import all_language_tags, has_page, stack_codes
    from .tags import tag

    slug, page = kwargs.get("slug"), kwargs.get("page")
    if name in EVERY_LANGUAGE:
        has = lambda lang: True  # noqa: E731
    elif name in ITEMS:
        translated = languages.published_translations().get((ITEMS[name], slug), {})
        has = lambda lang: lang.default or lang.code in translated  # noqa: E731
    elif name == "stack":
        has = lambda lang: lang.default or lang.code in stack_codes()  # noqa: E731
    elif name == "tag":
        language_tags = all_language_tags()
        has = lambda lang: tag(slug) is not None if lang.default else slug in language_tags.get(lang.code, {})  # noqa: E731
    elif name in LATER_PAGES:
        has = lambda lang: page > 1 and has_page(LATER_PAGES[name], lang, page, slug)  # noqa: E731
    else:
        return []
    kwargs = {key: value for key, value in (("slug", slug), ("page", page)) if value is not None}
    return [(lang, languages.page_address(name, lang.code, **kwargs)) for lang in every if has(lang)]


def page_languages(request):
    """`page_language` (its `code`, `dir`: base.html's <html lang dir>); with more than one
    language, `alternates` ([(hreflang, absolute address)] of each version and x-default) and
    `language_switcher` ([(Language, address, current?)]: the same page in each language, else
    the nearest page above it there (a list's later page: the list; a tag: the tags), else that
    language's home), `language_offers` ([(Language, address, words, dismiss)]: this page in
    each other language, offered in that language, templates/includes/language_offer.html); on
    another language's page, `site` with its title and description (`written_in` naming the
    default language for each it falls back to) and `links` to its home, lists, tags, feed and
    stack (where it has one)."""
    try:
        every = languages.languages()
    except DatabaseError:  # the contact service: no content
        every = [languages.Language(settings.LANGUAGE_CODE, settings.LANGUAGE_CODE, default=True)]
    current = getattr(request, "page_language", None)
    if current is None and len(every) < 2 and not languages.declared():
        code = translation.get_language() or settings.LANGUAGE_CODE  # one language: the active one
        current = languages.Language(code, code, default=True)
    current = current or every[0]
    context = {"page_language": current, "written_in": {}}
    if len(every) < 2:
        return context
    found = versions(request, every)
    site = Site.load()
    if len(found) > 1:
        alternates = [(lang.code, site.base_url + path) for lang, path in found]
        if found[0][0].default:
            alternates.append(("x-default", site.base_url + found[0][1]))
        context["alternates"] = alternates
    context["language_offers"] = [
        (lang, path, *offer_words(lang)) for lang, path in found if lang.code != current.code
    ]
    addresses = {lang.code: lang.prefix + "/" for lang in every}  # a language's home, at least
    addresses.update((lang.code, path) for lang, path in nearest_versions(request, every) + found)
    context["language_switcher"] = [(lang, addresses[lang.code], lang.code == current.code) for lang in every]
    if not current.default:
        shown = copy.copy(site)
        shown.title = current.title or site.title
        shown.description = current.description or site.description
        context["site"] = shown
        # The default language's title and description, where the language has none of its own,
        # are marked as written in it: a right-to-left page shows English text left to right.
        context["written_in"] = {
            "title": None if current.title else every[0],
            "description": None if current.description else every[0],
        }
        here = {"lang": current.code}
        context["links"] = {
            **_links(),
            **{
                key: reverse(f"pages:lang-{key}", kwargs=here)
                for key in ("home", "projects", "articles", "tags", "feed", "search")
            },
        }
        from .languages import stack_codes

        if current.code in stack_codes():
            context["links"]["stack"] = reverse("pages:lang-stack", kwargs=here)
    return context


def offer_words(lang):
    """The offer of a page's version in `lang`, and its dismiss button's label, in `lang` itself
    (the reader it is for reads that language, not the page's). Its catalog's "Read this page in
    English" says its own language; without one, the link is the language's name."""
    with translation.override(lang.code):
        words = gettext("Read this page in English")
        if words == "Read this page in English" and not lang.code.startswith("en"):
            words = lang.name
        return words, gettext("Dismiss")
