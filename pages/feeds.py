"""The Atom feeds: /feed.xml (SiteFeed), the newest projects and published articles, and
/tags/<slug>/feed.xml (TagFeed), a tag's newest, and /series/<slug>/feed.xml (SeriesFeed), a
series' parts; newest first, then by slug. Each entry carries
its description as the summary and its rendered body as the content, with absolute addresses.

Every link and id is absolute from base_url: syndication would otherwise complete relative links
with the request's host, which django-distill's internal request gets wrong."""

import datetime
import html
import io
import re
from itertools import chain
from typing import NamedTuple
from urllib.parse import urljoin

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.translation import gettext

from pages import series, tags
from pages.plain_text import xml_text
from portfolio.content.models import Article, Project, Site

# What an entry shows of its item.
ENTRY = ("slug", "title", "description", "date", "body_html")
PROJECT_ENTRY, ARTICLE_ENTRY = (*ENTRY, "stack"), (*ENTRY, "tags")


def midnight_utc(day):
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


# A start tag, read as a browser reads one: from `<name` to the first `>` outside a quoted value
# (a value is quoted only right after `=`), or to the body's end when none closes it. Possessive,
# so no match backtracks and each tag is read once, in linear time whatever the body holds.
START_TAG = re.compile(r"""<[a-zA-Z][^\s/>]*+(?:[^>=]++|=\s*+(?:"[^"]*+"?|'[^']*+'?)?)*+>?""")
# The attributes of a start tag, left to right (finditer: each match starts where the last ended,
# every character is in one): a name and its value, or a character between attributes.
ATTRIBUTE = re.compile(
    r"""(?P<name>[^\s"'>/=]++)(?:\s*+=\s*+(?P<value>"[^"]*+"?|'[^']*+'?|[^\s>]++))?|[\s/]++|."""
)
ADDRESS_NAMES = {"href", "src", "srcset", "poster", "cite", "action", "formaction", "data", "longdesc"}


def absolute_html(body, page_url):
    """`body` (HTML) with every address in its tags absolute, resolved against `page_url` as the
    page resolves it: a feed reader shows the body elsewhere, where `/media/...` or `#notes`
    would point at the reader's own site. `srcset` candidates (of <img> and <picture>'s
    <source>) each. Only start tags' address attributes: text that merely looks like
    `href="/x"` (in prose, in another attribute's value, escaped in code) is left as it is."""

    def absolute(address):
        try:
            return urljoin(page_url, address)
        except ValueError:  # no address a browser could follow (`//[a]/x`): left as written
            return address

    def attribute(match):
        name, value = match["name"], match["value"]
        if value is None or name.lower() not in ADDRESS_NAMES:
            return match[0]
        value = html.unescape(value.strip("\"'"))
        if name.lower() == "srcset":
            candidates = (candidate.strip().split(None, 1) for candidate in value.split(","))
            value = ", ".join(" ".join([absolute(c[0]), *c[1:]]) for c in candidates if c)
        else:
            value = absolute(value)
        return f'{name}="{html.escape(value)}"'

    def tag(match):
        whole = match[0]
        if not whole.endswith(">"):
            return whole  # never closed: not a tag
        name_end = re.match(r"<[^\s/>]*", whole).end()
        inside = ATTRIBUTE.sub(attribute, whole[name_end:-1])
        return whole[:name_end] + inside + ">"

    return START_TAG.sub(tag, body)


class AtomFeed(Atom1Feed):
    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        if item.get("content"):
            handler.addQuickElement("content", item["content"], {"type": "html"})

    def write(self, outfile, encoding):
        # The XML writer makes one write per tag and text: 370,000 writes into the response at
        # 10,000 entries, half the feed's cost. One write of the whole string instead.
        buffer = io.StringIO()
        super().write(buffer, encoding)
        outfile.write(buffer.getvalue())


class Channel(NamedTuple):
    """What a feed follows (the whole site, or one of its tags) and what it says of it."""

    site: Site
    title: str
    subtitle: str
    page: str  # the address of the page it follows
    address: str  # its own
    tag: str = ""  # the tag's slug (the series', in a series' feed)


class SiteFeed(Feed):
    feed_type = AtomFeed
    # The newest entries only, as feeds usually carry (djangoproject's: 10): a reader polls this
    # file, and a site of 10,000 articles would send 5 MB each time. The sitemaps and llms.txt
    # list everything.
    max_entries = 50

    def get_object(self, request):
        site = Site.load()
        return Channel(site, site.title, site.description, "/", reverse("pages:feed"))

    def entries(self, channel):
        """The newest max_entries projects and published articles."""
        # Both models are ordered newest first, then by slug, as the merged entries are.
        newest = slice(0, self.max_entries)
        projects = Project.objects.only(*PROJECT_ENTRY)[newest]
        articles = Article.objects.published().only(*ARTICLE_ENTRY)[newest]
        entries = sorted(chain(projects, articles), key=lambda entry: (-entry.date.toordinal(), entry.slug))
        return entries[newest]

    # Every text goes through xml_text: Django's XML writer raises on a control character (a
    # failed build), and lets U+FFFE through (a feed that is not well-formed).
    def title(self, channel):
        return xml_text(channel.title)

    def subtitle(self, channel):
        return xml_text(channel.subtitle)

    def link(self, channel):
        return xml_text(channel.site.base_url + channel.page)

    def feed_url(self, channel):
        return xml_text(channel.site.base_url + channel.address)

    def author_name(self, channel):
        return xml_text(channel.site.author)

    def items(self, channel):
        entries = self.entries(channel)
        for entry in entries:
            entry.absolute_url = xml_text(channel.site.base_url + entry.get_absolute_url())
        return entries

    def item_title(self, entry):
        return xml_text(entry.title)

    def item_description(self, entry):
        # Atom1Feed declares the summary type="html": the plain-text description is escaped.
        return escape(xml_text(entry.description))

    def item_extra_kwargs(self, entry):
        # The whole text (type="html" too), its addresses absolute.
        return {"content": xml_text(absolute_html(entry.body_html, entry.absolute_url))}

    def item_link(self, entry):
        return entry.absolute_url

    def item_pubdate(self, entry):
        return midnight_utc(entry.date)

    def item_updateddate(self, entry):
        return midnight_utc(entry.date)

    def item_categories(self, entry):
        if isinstance(entry, Project):
            return ["project", *map(xml_text, entry.stack)]
        return ["article", *map(xml_text, entry.tags)]


class TagFeed(SiteFeed):
    """/tags/<slug>/feed.xml: the same entries, of one tag's items."""

    def get_object(self, request, slug):
        tag = tags.tag(slug)
        if tag is None:
            raise Http404("No such tag")
        site = Site.load()
        about = gettext("Projects and articles tagged “%(tag)s”, newest first.") % {"tag": tag.name}
        return Channel(site, f"{tag.name} · {site.title}", about, tag.address, tag.feed_address, tag.slug)

    def entries(self, channel):
        taggings = list(tags.tagged(channel.tag)[: self.max_entries])
        return [item for _kind, item in tags.items_of(taggings, PROJECT_ENTRY, ARTICLE_ENTRY)]


class SeriesFeed(SiteFeed):
    """/series/<slug>/feed.xml: the parts of one series, newest first, as the site's feed."""

    def get_object(self, request, slug):
        found = series.series(slug)
        if found is None:
            raise Http404("No such series")
        site = Site.load()
        about = gettext("The parts of the series “%(series)s”, newest first.") % {"series": found.name}
        return Channel(
            site, f"{found.name} · {site.title}", about, found.address, found.feed_address, found.slug
        )

    def entries(self, channel):
        parts = series.parts_of(series.series(channel.tag), ARTICLE_ENTRY)
        parts.sort(key=lambda entry: (-entry.date.toordinal(), entry.slug))
        return parts[: self.max_entries]
