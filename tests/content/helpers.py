from django.forms.models import model_to_dict

from portfolio.content.models import Article, DailyDriver, Project, Site, Stack, StackModel


def database_state():
    """Every imported row, as plain data: compare before/after to prove nothing was written."""
    return {
        model.__name__: [model_to_dict(row) | {"pk": row.pk} for row in model.objects.order_by("pk")]
        for model in (Project, Article, Site, Stack, StackModel, DailyDriver)
    }
