"""The site's routes and two frozen routes whose pages' dependencies the build cannot know: one
declares nothing, one a part of the site there is none of (tests/export/test_shows.py)."""

from django.http import HttpResponse
from django_distill import distill_path

from portfolio import shows
from portfolio.urls import handler404, urlpatterns

__all__ = ["handler404", "urlpatterns"]


def hello(request):
    return HttpResponse("hello\n", content_type="text/plain; charset=utf-8")


urlpatterns = [
    *urlpatterns,
    distill_path("undeclared.txt", hello, name="undeclared", distill_file="undeclared.txt"),
    shows.distill_path(
        "misnamed.txt", hello, name="misnamed", distill_file="misnamed.txt", shows=shows.Shows("body")
    ),
]
