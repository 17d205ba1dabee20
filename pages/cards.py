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

from portfolio.content import content_cache
from portfolio.content.models import Article, Project, Site

from . import card_drawing


def has_own_image(item):
    """Is the item's own image one a social card can show (a raster image)? Then it has no card."""
    return bool(item.image and item.image.get("raster"))


def card_of(item):
    """The social image of an item without its own: {src, width, height, alt}."""
    kind = "project" if isinstance(item, Project) else "article"
    return {
        "src": reverse(f"pages:{kind}-card", args=[item.slug]),
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


def drawn(title, site_name, dated):
    """The card's PNG bytes, from the cache when this text was drawn before by this drawing."""
    text = "\0".join((title, site_name, dated))
    key = hashlib.sha256(f"{card_drawing.drawer()}\0{text}".encode()).hexdigest()
    path = Path(settings.MEDIA_CACHE_DIR) / "cards" / key[:2] / f"{key}.png"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = card_drawing.render(title, site_name, dated)
    content_cache.keep(path, data)
    return data


def png(item, dated=""):
    if has_own_image(item):
        raise Http404("This item has its own image")
    return HttpResponse(drawn(item.title, Site.load().title, dated), content_type="image/png")


def project_card(request, slug):
    item = Project.objects.filter(slug=slug).only("slug", "title", "image").first()
    if item is None:
        raise Http404("No such project")
    return png(item, "Project")


def article_card(request, slug):
    articles = Article.objects.all() if settings.SHOW_DRAFTS else Article.objects.published()
    item = articles.filter(slug=slug).only("slug", "title", "image", "date").first()
    if item is None:
        raise Http404("No such article")
    return png(item, card_drawing.dated(item.date))
