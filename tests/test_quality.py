"""Checks that keep the tree honest: migrations match the models, and ruff is clean."""

import subprocess
import sys

from django.conf import settings
from django.core.management import call_command


def test_migrations_match_the_models(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_ruff_lint_and_format():
    for args in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=settings.BASE_DIR, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_commands_load_drf_spectacular_only_to_make_openapi_json():
    """Every manage.py command loads every route (django-distill's ready()), so a view module's
    imports are paid by every start: the API's views describe their operations in plain data."""
    code = (
        "import sys, django; django.setup(); "
        "print('portfolio.urls' in sys.modules, 'drf_spectacular.utils' in sys.modules, "
        "'drf_spectacular.plumbing' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=settings.BASE_DIR, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["True", "False", "False"], result.stdout + result.stderr
