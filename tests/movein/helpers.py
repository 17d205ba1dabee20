"""What the move's command tests share: the sample sites, a post's text, and a real move."""

import io
from pathlib import Path

from django.core.management import call_command

from tests.export.conftest import tree

SITES = Path(__file__).parent / "sites"
POST = '---\ntitle: "{title}"\ndate: 2020-01-01\n---\n{body}\n'


def move(generator, source, dest):
    """Run the real command; (its report, DEST's files)."""
    out = io.StringIO()
    call_command("import_from", generator, str(source), "--into", str(dest), stdout=out, stderr=out)
    return out.getvalue(), tree(dest)
