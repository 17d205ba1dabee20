"""The build's fixtures (tests/export/conftest.py): a real build, and servers in the background."""

from tests.export.conftest import background, module_background, site  # noqa: F401
