"""/cards/<kind>/<slug>.png: the social card of a project or article without its own image
(drawn by pages/card_drawing.py).

A card drawn once is kept in settings.MEDIA_CACHE_DIR/cards/, named by a hash of its text and of
the drawing (card_drawing.drawer()), as the image variants are: a new database (a CI runner that
restored `.cache/`) or the authoring server reads it back instead of drawing it again.
"""

import hashlib
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext
from django.views import View

from portfolio.batch import Batched
from portfolio.content import content_cache
from portfolio.content.models import Article, Project, Site

from . import card_drawing


def has_own_image(item):
    """Is the item's own image one a social card can show (a raster image)? Then it has no card."""
    return bool(item.image and item.image.get("raster"))


def card_of(item):
    """The social image of an item without its own: {src, width, height, alt}."""
    kind = "project" if isinstance(item, Project) else "article"
    language = getattr(item, "language", None)  # a translation's (portfolio.content.languages)
    return {
        "src": reverse(f"pages:lang-{kind}-card", args=[language, item.slug])
        if language
        else reverse(f"pages:{kind}-card", args=[item.slug]),
        "width": card_drawing.WIDTH,
        "height": card_drawing.HEIGHT,
        "alt": item.title,
        "raster": True,
    }


def without_image(items):
    # A generator: django-distill reads an empty list as a route without parameters.
    for slug, image in items.values_list("slug", "image"):
        if not (image and image.get("raster")):
            yield slug


def project_card_slugs():
    """The projects that have a card (django-distill's distill_func)."""
    return without_image(Project.objects.order_by("slug"))


def article_card_slugs():
    """The published articles that have a card (django-distill's distill_func)."""
    return without_image(Article.objects.published().order_by("slug"))


def cache_path(title, site_name, dated):
    text = "\0".join((title, site_name, dated))
    key = hashlib.sha256(f"{card_drawing.drawer()}\0{text}".encode()).hexdigest()
    return Path(settings.MEDIA_CACHE_DIR) / "cards" / key[:2] / f"{key}.png"


def cached_cards():
    """The cache files of the cards the site shows now (what `distill-local --gc` keeps)."""
    site_name = Site.load().title
    return {
        cache_path(item.title, site_name, view.line(item))
        for view in (ProjectCard(), ArticleCard())
        for item in view.get_queryset()
        if not has_own_image(item)
    }


def drawn(title, site_name, dated):
    """The card's PNG bytes, from the cache when this text was drawn before by this drawing."""
    path = cache_path(title, site_name, dated)
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = card_drawing.render(title, site_name, dated)
    content_cache.keep(path, data)
    return data


class Card(View):
    """The card of the item whose slug the URL holds; 404 when it has its own image or none."""

    def get_queryset(self):
        raise NotImplementedError

    def line(self, item):
        """The line under the title."""
        raise NotImplementedError

    def get_object(self):
        item = self.get_queryset().filter(slug=self.kwargs["slug"]).first()
        if item is None:
            raise Http404("No such item")
        return item

    def get(self, request, slug):
        item = self.get_object()
        if has_own_image(item):
            raise Http404("This item has its own image")
        return HttpResponse(drawn(item.title, Site.load().title, self.line(item)), content_type="image/png")


class ProjectCard(Batched, Card):
    def get_queryset(self):
        return Project.objects.only("slug", "title", "image")

    def line(self, item):
        return gettext("Project")


class ArticleCard(Batched, Card):
    def get_queryset(self):
        articles = Article.objects.all() if settings.SHOW_DRAFTS else Article.objects.published()
        return articles.only("slug", "title", "image", "date")

    def line(self, item):
        return card_date(item.date)


def card_date(day):
    """An article's date as its page shows it in the active language, for its card: 5 May 2026,
    5 mai 2026, 2026年5月5日 (Django's DATE_FORMAT; settings' FORMAT_MODULE_PATH for English)."""
    return formats.date_format(day, "DATE_FORMAT")
