"""The site's routes and two more that show every published article's body: one declared as
showing the bodies, one (wrongly) as showing only the lists (tests/export/test_shows.py)."""

from django.http import HttpResponse

from portfolio.content.models import Article
from portfolio.shows import BODIES, LISTS, distill_path
from portfolio.urls import handler404, urlpatterns

__all__ = ["handler404", "urlpatterns"]


def bodies(request):
    text = "\n".join(Article.objects.published().order_by("slug").values_list("body", flat=True))
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


urlpatterns = [
    *urlpatterns,
    distill_path("bodies.txt", bodies, name="bodies", distill_file="bodies.txt", shows=BODIES),
    distill_path("stale.txt", bodies, name="stale", distill_file="stale.txt", shows=LISTS),
]
