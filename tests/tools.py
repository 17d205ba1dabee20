"""What a test does when a tool it needs (a browser, a server, a host's CLI) is not installed."""

import os

import pytest


def in_ci():
    """Is this CI's run (CI=true, which .ci/run sets)?"""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing_tool(message):
    """Skip on a developer's machine; fail in CI, where a green run must mean that every test
    ran. `make test` installs every tool."""
    if in_ci():
        pytest.fail(f"missing tool in CI: {message}", pytrace=False)
    pytest.skip(message)
