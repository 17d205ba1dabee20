"""/sitemap-index.xml and its sections (/sitemap-pages.xml, -projects, -articles, -tags, and
-series when there is one).

django.contrib.sitemaps builds locations from the request's scheme and host, which
django-distill's internal request gets wrong (`None://localhost`): locations here come from
base_url instead, and the index is built here for the same reason."""

from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import SitemapIndexItem
from django.contrib.sitemaps.views import sitemap as sitemap_view
from django.db.models import Max
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import get_language

from pages import series, tags
from pages.languages import all_language_tags, has_page, stack_codes
from pages.plain_text import xml_text
from pages.views import later_article_pages, later_project_pages, page_numbers
from portfolio.content import languages as site_languages
from portfolio.content.models import Article, Page, Project, Site, Stack, Tagging

# The contact app owns the page; it is a human page all the same.
CONTACT_PATH = "/contact"


class BaseUrlSitemap(Sitemap):
    """With more than one language (site.yaml's `languages`), django.contrib.sitemaps' own i18n:
    each address once per language that has it (`get_languages_for_item`), located with that
    language active, with `xhtml:link` alternates to every version and x-default."""

    alternates = True
    x_default = True
    kind = None  # an item sitemap's collection: its items' translations are their versions

    @cached_property
    def site_languages(self):
        return site_languages.languages()

    @property
    def i18n(self):
        return len(self.site_languages) > 1

    @property
    def languages(self):
        return [lang.code for lang in self.site_languages]

    def get_languages_for_item(self, item):
        if self.kind is None or not isinstance(item, Project | Article | Page):
            return self.languages if self.every_language(item) else self.languages[:1]
        translated = site_languages.published_translations().get((self.kind, item.slug), {})
        return [code for code in self.languages if code == self.languages[0] or code in translated]

    def every_language(self, item):
        return False

    def language_prefix(self):
        """ "/fr" while another language than the default is active (self._location's), else ""."""
        if not self.i18n or get_language() == self.languages[0]:
            return ""
        return f"/{get_language()}"

    def get_urls(self, page=1, site=None, protocol=None):
        protocol, domain = xml_text(Site.load().base_url).split("://", 1)
        return self._urls(page, protocol, domain)

    def _urls(self, page, protocol, domain):
        urls = super()._urls(page, protocol, domain)
        if self.i18n:  # x-default is the default language's (site.yaml's first), not LANGUAGE_CODE's
            default = self.languages[0]
            for url in urls:
                url["alternates"] = [alt for alt in url["alternates"] if alt["lang_code"] != "x-default"]
                first = next((alt for alt in url["alternates"] if alt["lang_code"] == default), None)
                if first and len(url["alternates"]) > 1:
                    url["alternates"].append({"location": first["location"], "lang_code": "x-default"})
                elif len(url["alternates"]) < 2:
                    url["alternates"] = []
        return urls

    def location(self, item):
        if self.kind and self.language_prefix():
            return site_languages.item_address(self.kind, item.slug, get_language())
        return item.get_absolute_url()


class PageSitemap(BaseUrlSitemap):
    """The pages that are not one item of a collection, each dated by what it shows, then the
    published standalone pages (content/pages/), undated: a page has no date."""

    def items(self):
        # Every page of the lists (pages/views.py): page 1 at the list's address, then the rest.
        projects = [("projects-page", number) for number in later_project_pages()]
        articles = [("articles-page", number) for number in later_article_pages()]
        standalone = list(Page.objects.published().only("slug"))
        return [
            "home",
            "projects",
            *projects,
            "articles",
            *articles,
            "stack",
            "developers",
            "contact",
            *standalone,
        ]

    kind = "pages"
    EVERY_LANGUAGE = ("home", "projects", "articles")

    def every_language(self, name):
        return name in self.EVERY_LANGUAGE

    def get_languages_for_item(self, item):
        if item == "stack":
            return [code for code in self.languages if code == self.languages[0] or code in stack_codes()]
        if isinstance(item, tuple):  # a list's later page: in each language whose list is as long
            listed, number = item[0].removesuffix("-page"), int(item[1])
            return [lang.code for lang in self.site_languages if has_page(listed, lang, number)]
        return super().get_languages_for_item(item)

    def location(self, name):
        if isinstance(name, Page):
            return super().location(name)
        if isinstance(name, tuple):
            return site_languages.page_address(name[0], get_language(), page=int(name[1]))
        if self.language_prefix() and (name in self.EVERY_LANGUAGE or name == "stack"):
            return reverse(f"pages:lang-{name}", kwargs={"lang": get_language()})
        return CONTACT_PATH if name == "contact" else reverse(f"pages:{name}")

    def lastmod(self, name):
        if isinstance(name, Page):
            return None
        if isinstance(name, tuple):
            return self.lastmods[name[0].removesuffix("-page")]
        return self.lastmods[name]

    def get_latest_lastmod(self):  # the newest of the dated pages (a standalone page has none)
        return self.lastmods["home"]

    @cached_property
    def lastmods(self):
        projects = Project.objects.aggregate(latest=Max("date"))["latest"]
        articles = Article.objects.published().aggregate(latest=Max("date"))["latest"]
        stack = Stack.objects.values_list("last_updated", flat=True).first()
        latest = max(filter(None, [projects, articles, stack]), default=None)
        return {
            "home": latest,
            "projects": projects or latest,
            "articles": articles or latest,
            "stack": stack or latest,
            "developers": latest,
            "contact": latest,
        }


class ProjectSitemap(BaseUrlSitemap):
    kind = "projects"

    def items(self):
        return Project.objects.only("slug", "date")

    def lastmod(self, project):
        return project.date

    def get_latest_lastmod(self):  # for the index: one query, not every item loaded and dated
        return Project.objects.aggregate(latest=Max("date"))["latest"]


class ArticleSitemap(BaseUrlSitemap):
    kind = "articles"

    def items(self):
        return Article.objects.published().only("slug", "date")

    def lastmod(self, article):
        return article.date

    def get_latest_lastmod(self):
        return Article.objects.published().aggregate(latest=Max("date"))["latest"]


class TagSitemap(BaseUrlSitemap):
    """/tags (None), in every language, and every page of every tag ((slug, number)) in each
    language whose tag has it (another language's tags are its translations' own), each dated by
    the newest item it has."""

    def items(self):
        every = [self.tags, *all_language_tags().values()]
        pages = {
            (slug, number)
            for tags in every
            for slug, tag in tags.items()
            for number in page_numbers(tag.count)
        }
        return [None, *sorted(pages)]

    def every_language(self, page):
        return page is None

    def get_languages_for_item(self, page):
        if page is None:
            return super().get_languages_for_item(page)
        slug, number = page
        return [lang.code for lang in self.site_languages if has_page("tag", lang, number, slug)]

    def location(self, page):
        if page is None:
            return site_languages.page_address("tags", get_language())
        slug, number = page
        if number == 1:
            return site_languages.page_address("tag", get_language(), slug=slug)
        return site_languages.page_address("tag-page", get_language(), slug=slug, page=number)

    def lastmod(self, page):
        if page is None:
            return self.get_latest_lastmod()
        slug = page[0]
        if slug in self.tags:
            return self.tags[slug].latest
        return max(tags[slug].latest for tags in all_language_tags().values() if slug in tags)

    @cached_property
    def tags(self):
        return {tag.slug: tag for tag in tags.tags()}

    def get_latest_lastmod(self):
        return Tagging.objects.aggregate(latest=Max("date"))["latest"]


class SeriesSitemap(BaseUrlSitemap):
    """The page of every series, dated by its newest part."""

    def items(self):
        return series.all_series()

    def location(self, found):
        return found.address

    def lastmod(self, found):
        return found.latest

    def get_latest_lastmod(self):
        return max((found.latest for found in series.all_series()), default=None)


# One section holds at most 50,000 URLs (Sitemap.limit); past that the view paginates with ?p=,
# which a static host cannot serve: split the section instead.
SECTIONS = {
    "pages": PageSitemap,
    "projects": ProjectSitemap,
    "articles": ArticleSitemap,
    "tags": TagSitemap,
    "series": SeriesSitemap,
}


def section_names():
    """The sections there are: the series' only when there is a series (a site without one, or
    whose series have no published part, shows no trace of them)."""
    names = list(SECTIONS)
    if not any(True for _ in series.series_slugs()):
        names.remove("series")
    return names


def section(request, section):
    if section not in section_names():
        raise Http404("No such sitemap section")
    # django.contrib.sitemaps' own sitemap.xml, in Jinja2: 9,000 URLs in DTL took half a second.
    return sitemap_view(request, SECTIONS, section=section, template_name="pages/sitemap.xml")


def index(request):
    base_url = xml_text(Site.load().base_url)
    names = section_names()
    entries = [
        SitemapIndexItem(
            base_url + reverse("pages:sitemap", kwargs={"section": name}), sitemap().get_latest_lastmod()
        )
        for name, sitemap in SECTIONS.items()
        if name in names
    ]
    context = {"sitemaps": entries}
    return TemplateResponse(request, "sitemap_index.xml", context, content_type="application/xml")
