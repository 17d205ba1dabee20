"""The pages of the site's other languages (site.yaml's `languages` after the first), under
`/<lang>/`: its home, its lists, each translated item, its tags, its feed, its 404 page. Each is
rendered with the language active (LanguageMiddleware) by the default language's templates, from
the items as their translations show them (portfolio.content.languages.translated). The default
language's pages stay where they are, and the API's documents stay in it (the spec's)."""

from typing import NamedTuple

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext

from pages import cards, twins, views
from pages.feeds import SiteFeed
from pages.tags import Tag, _slug
from pages.tags import tag as default_tag
from portfolio.content import languages
from portfolio.content.models import Article, Page, Project, Site, Stack, StackTranslation, Translation

from .views import LATEST_ARTICLES, ArticlePage, ProjectPage, StandalonePage


class LanguageConverter:
    """`<lang:lang>`: a language's code as site.yaml writes it (`fr`, `zh-hans`). Whether the site
    has it is the view's question (the languages are content, the routes are code)."""

    regex = r"[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,2}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


def language_or_404(code):
    found = languages.other_language(code)
    if found is None:
        raise Http404("The site has no such language")
    return found


def language_params():
    """django-distill's parameters: every language but the default (a generator: an empty list
    would be read as a route without parameters)."""
    yield from languages.other_codes()


def home(request, lang):
    language_or_404(lang)
    projects = languages.translated_items("projects", lang)
    translation = StackTranslation.objects.filter(language=lang).only("current_focus").first()
    focus = translation.current_focus if translation else ""
    context = {
        "featured": [project for project in projects if project.featured],
        "articles": languages.translated_items("articles", lang)[:LATEST_ARTICLES],
        "stack": {"current_focus": focus} if focus else Stack.objects.only("current_focus").first(),
    }
    # Without its own, the default language's focus, marked as written in it (home.html).
    context["focus_in"] = None if focus else languages.default_language()
    return render(request, "pages/home.html", context)


@Site.build_cached
def all_translated_lists():
    """{(kind, language): its translated items, newest first} of the projects and articles of
    every language but the default: read once a build, where every page of its lists and of its
    tags shows a slice of them."""
    return {
        (kind, code): languages.translated_items(kind, code)
        for code in languages.other_codes()
        for kind in ("projects", "articles")
    }


def translated_list(kind, code):
    return all_translated_lists().get((kind, code), [])


class LanguageList:
    """A language's list in pages, as the default language's (views.ListPage, the one place of
    the rule: LIST_PAGE_SIZE items a page, page 1 at the list's own address, the later ones at
    `<list>/page/<n>`, page 1 there and pages past the last not found), from its translated
    items. Its routes are the default's named `lang-<name>`; it has no JSON document (the API's
    are the default language's)."""

    json_twin = None

    def get(self, request, lang, page=None, **kwargs):
        language_or_404(lang)
        return super().get(request, page, **kwargs)


class ProjectList(LanguageList, views.ProjectList):
    name, object_name = "lang-projects", "projects"

    def items(self):
        return translated_list("projects", self.kwargs["lang"])


class ArticleList(LanguageList, views.ArticleList):
    name, object_name = "lang-articles", "articles"

    def items(self):
        return translated_list("articles", self.kwargs["lang"])


def later_list_pages(kind):
    """django-distill's parameters of a kind's list pages after the first in every language:
    (language, page number), as views.later_pages numbers the default's."""

    def params():
        for code in languages.other_codes():
            yield from ((code, number) for number in views.later_pages(translated_list(kind, code)))

    return params


def translated_or_404(kind, original, lang):
    """`original` (of `kind`) as its published translation into `lang` shows it; 404 without one."""
    translations = Translation.objects.published()
    translation = get_object_or_404(translations, kind=kind, slug=original.slug, language=lang)
    return languages.translated(original, translation)


class Translated:
    """An item's page in another language: its original, as its published translation shows it."""

    kind = None

    def get_object(self, queryset=None):
        language_or_404(self.kwargs["lang"])
        return translated_or_404(self.kind, super().get_object(queryset), self.kwargs["lang"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The API's documents are the default language's; the markdown twin is this one's.
        context["json_twin"] = None
        context["series_box"], context["related"] = None, []
        context["markdown_twin"] = self.request.path + ".md"  # TranslatedTwin
        return context


class ProjectTranslation(Translated, ProjectPage):
    kind = "projects"


class ArticleTranslation(Translated, ArticlePage):
    kind = "articles"

    def get_queryset(self):
        return Article.objects.published().defer("body")


class PageTranslation(Translated, StandalonePage):
    kind = "pages"

    def get_queryset(self):
        return Page.objects.published().defer("body")


class TranslatedTwin:
    """A translation's markdown twin (/<lang>/articles/<slug>.md): the twin of its original as its
    translation shows it, its page address its language's (its JSON stays the default language's:
    the API's documents are the spec's)."""

    kind = None

    def get(self, request, lang, slug):
        language_or_404(lang)
        item = translated_or_404(self.kind, get_object_or_404(self.get_queryset(), slug=slug), lang)
        base_url = Site.load().base_url
        if self.kind == "pages":
            return HttpResponse(twins.page_markdown(item, base_url), content_type=twins.MARKDOWN)
        document = dict(self.get_serializer(item).data)
        document["url"] = base_url + item.address
        return HttpResponse(self.markdown(document), content_type=twins.MARKDOWN)


class ProjectTwin(TranslatedTwin, twins.Twin):
    kind = "projects"
    queryset = twins.ProjectTwin.queryset
    serializer_class = twins.ProjectTwin.serializer_class
    markdown = staticmethod(twins.project_markdown)


class ArticleTwin(TranslatedTwin, twins.Twin):
    kind = "articles"
    queryset = twins.ArticleTwin.queryset
    serializer_class = twins.ArticleTwin.serializer_class
    markdown = staticmethod(twins.article_markdown)


class PageTwin(TranslatedTwin, twins.Twin):
    kind = "pages"
    queryset = twins.PageTwin.queryset


class TranslatedCard:
    """/cards/<lang>/articles/<slug>.png: a translation's social card, its title in its language
    and script (card_drawing draws Arabic, Persian, CJK...), under that language's site title."""

    kind = None

    def get(self, request, lang, slug):
        language = language_or_404(lang)
        original = self.get_queryset().filter(slug=slug).first()
        if original is None or cards.has_own_image(original):
            raise Http404("No such card")
        item = translated_or_404(self.kind, original, lang)
        site_name = language.title or Site.load().title
        return HttpResponse(cards.drawn(item.title, site_name, self.line(item)), content_type="image/png")


class ProjectCard(TranslatedCard, cards.ProjectCard):
    kind = "projects"


class ArticleCard(TranslatedCard, cards.ArticleCard):
    kind = "articles"


def card_slugs(kind):
    """django-distill's parameters of a kind's translated cards: (language, slug) of each published
    translation whose original has no image of its own."""
    model = languages.ITEM_MODELS[kind]

    def slugs():
        without_image = set(cards.without_image(model.objects.all()))
        for lang, slug in translated_slugs(kind)():
            if slug in without_image:
                yield lang, slug

    return slugs


class LanguageTag(NamedTuple):
    """A tag of one language's translated items (their own tags, or their originals')."""

    lang: str
    slug: str
    name: str
    projects: int
    articles: int
    items: list

    @property
    def count(self):
        return self.projects + self.articles

    counted = Tag.counted  # "2 projects and 1 article", in the active language: the default's words

    @property
    def latest(self):
        """The date of its newest item (as the default language's Tag has it)."""
        return self.items[0][1].date

    @property
    def address(self):
        return reverse("pages:lang-tag", kwargs={"lang": self.lang, "slug": self.slug})

    @property
    def feed_address(self):
        return reverse("pages:lang-tag-feed", kwargs={"lang": self.lang, "slug": self.slug})


@Site.build_cached
def all_language_tags():
    return {code: language_tags(code) for code in languages.other_codes()}


def language_tags(code):
    """{slug: LanguageTag} of the language `code`, each with its items newest first."""
    found = {}
    items = [("projects", item) for item in translated_list("projects", code)]
    items += [("articles", item) for item in translated_list("articles", code)]
    items.sort(key=lambda pair: (-pair[1].date.toordinal(), pair[1].slug, pair[0] == "articles"))
    for kind, item in items:
        for name in item.stack if kind == "projects" else item.tags:
            slug = _slug(name)
            tagged = found.setdefault(slug, {"name": name, "items": []})
            if not tagged["items"] or tagged["items"][-1][1] is not item:
                tagged["items"].append((kind, item))
    return {
        slug: LanguageTag(
            code,
            slug,
            tag["name"],
            sum(kind == "projects" for kind, _ in tag["items"]),
            sum(kind == "articles" for kind, _ in tag["items"]),
            tag["items"],
        )
        for slug, tag in sorted(found.items())
    }


def has_page(listed, lang, number, slug=None):
    """Whether the list of route `listed` ("projects", "articles", or "tag" with its `slug`) has a
    page `number` in the Language `lang`: a list's first page always (saying when it is empty), a
    tag's while the tag has an item there, a later page while the list is that long."""
    length = list_length(listed, lang, slug)
    return (length > 0 or listed != "tag") and number in views.page_numbers(length)


def list_length(name, lang, slug=None):
    """How many items the list of route `name` ("projects", "articles", or "tag" with its `slug`)
    holds in the Language `lang`: how many pages it has there (views.page_numbers)."""
    if not lang.default:
        if name == "tag":
            found = all_language_tags().get(lang.code, {}).get(slug)
            return found.count if found else 0
        return len(translated_list(name, lang.code))
    if name == "tag":
        found = default_tag(slug)
        return found.count if found else 0
    return (Project.objects.all() if name == "projects" else Article.objects.published()).count()


def language_tag(code, slug):
    language_or_404(code)
    found = all_language_tags().get(code, {}).get(slug)
    if found is None:
        raise Http404("No such tag in this language")
    return found


def language_tag_slugs():
    """django-distill's parameters of every language's tag pages and feeds."""
    yield from ((code, slug) for code, tags in all_language_tags().items() for slug in tags)


def later_tag_pages():
    """django-distill's parameters of every language's tag pages after the first: (language,
    tag slug, page number), as views.later_tag_pages numbers the default's."""
    for code, tags in all_language_tags().items():
        for tag in tags.values():
            yield from ((code, tag.slug, str(number)) for number in views.page_numbers(tag.count)[1:])


def tag_index(request, lang):
    """/<lang>/tags: the language's tags, as /tags lists the default's."""
    language_or_404(lang)
    return render(request, "pages/tags.html", {"tags": list(all_language_tags()[lang].values())})


class TagPage(LanguageList, views.TagPage):
    """/<lang>/tags/<slug> and its later pages: the language's tag, its (kind, item) pairs newest
    first."""

    name = "lang-tag"

    def find_tag(self):
        return language_tag(self.kwargs["lang"], self.kwargs["slug"])

    def items(self):
        return self.tag.items

    def shown(self, object_list):
        return list(object_list)


def stack(request, lang):
    """/<lang>/stack, where stack.<lang>.yaml exists."""
    language_or_404(lang)
    shown = languages.translated_stack(lang)
    if shown is None:
        raise Http404("No stack profile in this language")
    return render(request, "pages/stack.html", {"stack": shown})


@Site.build_cached  # every page of another language asks, for its header's Stack link
def stack_codes():
    """{code} of the languages with a stack.<lang>.yaml."""
    return set(StackTranslation.objects.values_list("language", flat=True))


def stack_languages():
    """django-distill's parameters: the languages with a stack.<lang>.yaml."""
    yield from (code for code in languages.other_codes() if code in stack_codes())


def search(request, lang):
    """/<lang>/search: the search page in that language, whose <html lang> has Pagefind search
    that language's pages."""
    language_or_404(lang)
    return render(request, "pages/search.html")


def not_found_page(request, lang):
    language_or_404(lang)
    return views.not_found(request)


class LanguageFeed(SiteFeed):
    """/<lang>/feed.xml: the newest translated projects and articles, as the site's feed."""

    def get_object(self, request, lang):
        language = language_or_404(lang)
        site = Site.load()
        channel = super().get_object(request)
        home = reverse("pages:lang-home", kwargs={"lang": lang})
        return channel._replace(
            title=language.title or site.title,
            subtitle=language.description or site.description,
            page=home,
            address=reverse("pages:lang-feed", kwargs={"lang": lang}),
            tag=lang,
        )

    def entries(self, channel):
        items = languages.translated_items("projects", channel.tag) + languages.translated_items(
            "articles", channel.tag
        )
        items.sort(key=lambda entry: (-entry.date.toordinal(), entry.slug))
        return items[: self.max_entries]


class LanguageTagFeed(LanguageFeed):
    """/<lang>/tags/<slug>/feed.xml."""

    def get_object(self, request, lang, slug):
        tag = language_tag(lang, slug)
        channel = super().get_object(request, lang)
        return channel._replace(
            tag=f"{lang}/{slug}",
            title=f"{tag.name} · {channel.title}",
            subtitle=gettext("Projects and articles tagged “%(tag)s”, newest first.") % {"tag": tag.name},
            page=tag.address,
            address=tag.feed_address,
        )

    def entries(self, channel):
        tag = language_tag(*channel.tag.split("/", 1))
        return [item for _kind, item in tag.items[: self.max_entries]]


def translated_slugs(kind):
    """django-distill's parameters of a kind's translated pages: (language, slug)."""

    def slugs():
        rows = Translation.objects.published().filter(kind=kind, language__in=languages.other_codes())
        yield from rows.order_by("language", "slug").values_list("language", "slug")

    return slugs
