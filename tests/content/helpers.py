import pytest
from django.forms.models import model_to_dict

from portfolio.content.importer import import_content
from portfolio.content.models import (
    Alias,
    Article,
    DailyDriver,
    PathAlias,
    Project,
    Reference,
    Site,
    Stack,
    StackModel,
    Tagging,
)
from portfolio.content.rules import ContentInvalid

# Every table an import writes.
MODELS = [Project, Article, Alias, PathAlias, Reference, Site, Stack, StackModel, DailyDriver, Tagging]


def database_state():
    """Every imported row, as plain data: compare before/after to prove nothing was written."""
    return {
        model.__name__: [model_to_dict(row) | {"pk": row.pk} for row in model.objects.order_by("pk")]
        for model in MODELS
    }


def assert_named_error(content_dir, rel, field, fragment):
    """Importing `content_dir` fails with an error of `rel`'s `field` holding `fragment`, and the
    database keeps what it held."""
    before = database_state()
    with pytest.raises(ContentInvalid) as caught:
        import_content(content_dir, workers=1)
    messages = [str(error) for error in caught.value.errors]
    assert any(m.startswith(f"{rel}: {field}: ") and fragment in m for m in messages), messages
    assert database_state() == before
