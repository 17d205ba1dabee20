"""The render step's one batch (portfolio/export/render.py): a run of one route's detail URLs is
rendered with its items from one query and, where the view serializes its item, their documents
from one serializer. Each file must still be the authoring server's body for that URL."""

from itertools import groupby
from operator import attrgetter

from portfolio.export.plan import targets
from portfolio.export.render import get, prepared

SERIALIZED = ["api:project-json", "api:article-json", "pages:project-md", "pages:article-md"]
PAGES = ["pages:project", "pages:article"]


def test_a_run_of_detail_urls_renders_the_authoring_servers_bytes(imported, client):
    runs = {route: list(run) for route, run in groupby(targets(), key=attrgetter("route"))}
    for route in SERIALIZED + PAGES:
        run = runs[route]
        views = prepared(run)
        assert len(run) >= 2 and set(views) == {target.uri for target in run}, route
        for target in run:
            assert ("get_serializer" in views[target.uri]) == (route in SERIALIZED), target.uri
            status, body = get(target.uri, views[target.uri])
            response = client.get(target.uri)
            assert (status, body) == (response.status_code, response.content), target.uri
