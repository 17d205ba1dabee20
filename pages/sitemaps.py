"""/sitemap-index.xml and its sections (/sitemap-pages.xml, -projects, -articles, -tags).

django.contrib.sitemaps builds locations from the request's scheme and host, which
django-distill's internal request gets wrong (`None://localhost`): locations here come from
base_url instead, and the index is built here for the same reason."""

from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import SitemapIndexItem
from django.contrib.sitemaps.views import sitemap as sitemap_view
from django.db.models import Max
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.functional import cached_property

from pages import tags
from pages.plain_text import xml_text
from pages.views import later_article_pages, later_project_pages, page_numbers
from portfolio.content.models import Article, Page, Project, Site, Stack, Tagging

# The contact app owns the page; it is a human page all the same.
CONTACT_PATH = "/contact"


class BaseUrlSitemap(Sitemap):
    def get_urls(self, page=1, site=None, protocol=None):
        protocol, domain = xml_text(Site.load().base_url).split("://", 1)
        return self._urls(page, protocol, domain)


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

    def location(self, name):
        if isinstance(name, Page):
            return name.get_absolute_url()
        if isinstance(name, tuple):
            return reverse(f"pages:{name[0]}", kwargs={"page": int(name[1])})
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
    def items(self):
        return Project.objects.only("slug", "date")

    def lastmod(self, project):
        return project.date

    def get_latest_lastmod(self):  # for the index: one query, not every item loaded and dated
        return Project.objects.aggregate(latest=Max("date"))["latest"]


class ArticleSitemap(BaseUrlSitemap):
    def items(self):
        return Article.objects.published().only("slug", "date")

    def lastmod(self, article):
        return article.date

    def get_latest_lastmod(self):
        return Article.objects.published().aggregate(latest=Max("date"))["latest"]


class TagSitemap(BaseUrlSitemap):
    """/tags (None) and every page of every tag ((tag, number)), each dated by the newest item
    it has."""

    def items(self):
        return [None, *((tag, number) for tag in self.tags for number in page_numbers(tag.count))]

    def location(self, page):
        if page is None:
            return reverse("pages:tags")
        tag, number = page
        if number == 1:
            return tag.address
        return reverse("pages:tag-page", kwargs={"slug": tag.slug, "page": number})

    def lastmod(self, page):
        return self.get_latest_lastmod() if page is None else page[0].latest

    @cached_property
    def tags(self):
        return tags.tags()

    def get_latest_lastmod(self):
        return Tagging.objects.aggregate(latest=Max("date"))["latest"]


# One section holds at most 50,000 URLs (Sitemap.limit); past that the view paginates with ?p=,
# which a static host cannot serve: split the section instead.
SECTIONS = {"pages": PageSitemap, "projects": ProjectSitemap, "articles": ArticleSitemap, "tags": TagSitemap}


def section_names():
    return list(SECTIONS)


def section(request, section):
    # django.contrib.sitemaps' own sitemap.xml, in Jinja2: 9,000 URLs in DTL took half a second.
    return sitemap_view(request, SECTIONS, section=section, template_name="pages/sitemap.xml")


def index(request):
    base_url = xml_text(Site.load().base_url)
    entries = [
        SitemapIndexItem(
            base_url + reverse("pages:sitemap", kwargs={"section": name}), sitemap().get_latest_lastmod()
        )
        for name, sitemap in SECTIONS.items()
    ]
    context = {"sitemaps": entries}
    return TemplateResponse(request, "sitemap_index.xml", context, content_type="application/xml")
