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
