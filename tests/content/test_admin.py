"""The admin lists and searches every imported object, read-only, with its source file."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from portfolio.content.importer import import_content
from portfolio.content.models import Article, PathAlias, Project, Site, Stack
from tests.content_builder import DRAFT_TITLE, SITE_YAML, write_content


@pytest.fixture
def admin_client(client, imported):
    client.force_login(User.objects.create_superuser("admin", "admin@example.org", "pw"))
    return client


@pytest.mark.parametrize("model", [Project, Article, Stack, Site])
def test_changelists_list_everything_and_forbid_edits(admin_client, model):
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    response = admin_client.get(reverse(f"{prefix}_changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == model.objects.count() > 0
    assert admin_client.get(reverse(f"{prefix}_add")).status_code == 403
    obj = model.objects.first()
    change = admin_client.get(reverse(f"{prefix}_change", args=[obj.pk]))
    assert change.status_code == 200
    assert obj.source_path in change.content.decode()
    assert b'name="_save"' not in change.content, "read-only: no save button"
    delete = admin_client.post(reverse(f"{prefix}_delete", args=[obj.pk]))
    assert delete.status_code == 403 and model.objects.filter(pk=obj.pk).exists()


def test_drafts_are_listed_and_filterable(admin_client):
    url = reverse("admin:content_article_changelist")
    assert DRAFT_TITLE in admin_client.get(url).content.decode()
    drafts = admin_client.get(url, {"draft__exact": "1"}).context["cl"].result_list
    assert [a.title for a in drafts] == [DRAFT_TITLE]


def test_filter_by_tag_and_search_body(admin_client):
    url = reverse("admin:content_article_changelist")
    by_tag = admin_client.get(url, {"tag": "python"}).context["cl"].result_list
    assert [a.slug for a in by_tag] == ["same-day"]
    by_body = admin_client.get(url, {"q": "do not publish"}).context["cl"].result_list
    assert [a.title for a in by_body] == [DRAFT_TITLE]
    projects = reverse("admin:content_project_changelist")
    by_status = admin_client.get(projects, {"status__exact": "reference"}).context["cl"].result_list
    assert [p.slug for p in by_status] == ["beta_two"]
    featured = admin_client.get(projects, {"featured__exact": "1"}).context["cl"].result_list
    assert [p.slug for p in featured] == ["alpha-one"]


def test_path_aliases_are_listed_read_only(admin_client):
    response = admin_client.get(reverse("admin:content_pathalias_changelist") + "?q=alpha")
    assert response.status_code == 200
    assert [str(row) for row in response.context["cl"].result_list] == [
        "/work/alpha-project/ -> projects/alpha-one"
    ]
    assert admin_client.get(reverse("admin:content_pathalias_add")).status_code == 403
    row = PathAlias.objects.first()
    assert admin_client.post(reverse("admin:content_pathalias_delete", args=[row.pk])).status_code == 403


def test_the_site_page_shows_site_yaml_s_redirects(admin_client, imported):
    write_content(imported, {"site.yaml": SITE_YAML + "redirects: {/blog/: /, /blog/index.xml: /feed.xml}\n"})
    import_content(imported, workers=1)
    change = admin_client.get(reverse("admin:content_site_change", args=[Site.objects.get().pk]))
    assert "/blog/ → /<br>/blog/index.xml → /feed.xml" in change.content.decode()
