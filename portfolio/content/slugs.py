"""The parameters of every detail URL the static export freezes (django-distill's distill_func).

Generators, not lists: django-distill renders an empty list once with no arguments (which cannot
reverse), but an empty generator not at all, so a site with no articles still builds.
"""

from .models import Article, Page, Project


def project_slugs():
    yield from Project.objects.values_list("slug", flat=True)


def published_article_slugs():
    yield from Article.objects.published().values_list("slug", flat=True)


def published_page_slugs():
    yield from Page.objects.published().values_list("slug", flat=True)
