"""Checks that keep the tree honest: migrations match the models, and ruff is clean."""

import re
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


def test_architecture_names_every_module():
    """docs/architecture.md's layout names each module of the code in its folder's row (each
    app's apps.py and migrations aside), so a reader finds every module where it says."""
    root = settings.BASE_DIR
    rows = {}
    for line in (root / "docs" / "architecture.md").read_text().splitlines():
        if line.startswith("| `") and "/` |" in line:
            rows[line.split("`")[1]] = line
    unnamed = []
    for folder in ["portfolio/", "portfolio/content/", "portfolio/movein/", "portfolio/export/",
                   "portfolio/preview/", "pages/", "api/", "contact/"]:  # fmt: skip
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root / folder).as_posix()
            nested = any(
                rel.startswith(other.removeprefix(folder))
                for other in rows
                if other != folder and other.startswith(folder)
            )
            if nested or path.name in ("__init__.py", "apps.py") or "migrations" in path.parts:
                continue
            if not re.search(rf"(?<![\w-]){re.escape(path.name)}", rows[folder]):
                unnamed.append(f"{folder}{rel}")
    assert unnamed == [], f"not in docs/architecture.md's layout: {unnamed}"


def test_the_export_stays_within_its_lines():
    """The export builds only (issue 55): its modules, the command aside, hold at most 2,300
    lines; what another part of the site knows (the content's addresses, the routes) lives there."""
    lines = sum(
        len(path.read_text().splitlines()) for path in (settings.BASE_DIR / "portfolio/export").glob("*.py")
    )
    assert lines <= 2300, f"portfolio/export/*.py: {lines} lines"
