"""The render step's one batch (portfolio/export/render.py, portfolio/batch.py): a run of one
route's detail URLs whose view accepts a batch is rendered with its items from one query and,
where the view serializes its item, their documents from one serializer. Each file must still be
the authoring server's body for that URL; a view without the hook is not given a batch."""

import json
from itertools import groupby
from operator import attrgetter
from urllib.parse import unquote

from django.urls import resolve

from portfolio.batch import Batched
from portfolio.export.plan import targets
from portfolio.export.render import get, prepared

SERIALIZED = ["api:project-json", "api:article-json", "pages:project-md", "pages:article-md"]
PAGES = ["pages:project", "pages:article", "pages:project-card", "pages:article-card"]


def test_a_run_of_detail_urls_renders_the_authoring_servers_bytes(imported, client):
    runs = {route: list(run) for route, run in groupby(targets(), key=attrgetter("route"))}
    for route in SERIALIZED + PAGES:
        run = runs[route]
        views = prepared(run)
        assert len(run) >= 2 and set(views) == {target.uri for target in run}, route
        for target in run:
            assert (views[target.uri][1] is not None) == (route in SERIALIZED), target.uri
            status, body = get(target.uri, views[target.uri])
            response = client.get(target.uri)
            assert (status, body) == (response.status_code, response.content), target.uri


def test_a_batched_view_answers_with_the_item_and_document_it_is_given(imported):
    runs = {route: list(run) for route, run in groupby(targets(), key=attrgetter("route"))}
    run = runs["api:project-json"]
    item, document = prepared(run)[run[0].uri]
    status, body = get(run[0].uri, (item, {**document, "title": "Given by the batch"}))
    assert status == 200 and json.loads(body)["title"] == "Given by the batch"


def test_views_without_the_hook_get_no_batch(imported):
    for target in targets():
        view_class = getattr(resolve(unquote(target.uri)).func, "view_class", None)
        if not (view_class and issubclass(view_class, Batched)):
            assert prepared([target, target]) == {}, target.uri
