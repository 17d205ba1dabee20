"""How the suite shares out its tests between pytest-xdist's workers (`-n 2 --dist loadfile`,
pyproject.toml): each test file is a unit that one worker runs whole, as --dist loadfile deals
them, so that a module's fixtures (a build, a server, wrangler) are made once; the tests of an
`@pytest.mark.xdist_group(name)` mark are one unit across files instead, as --dist loadgroup
deals them (the contact service's timed tests, one after another; the chains of incremental
builds, one unit each).

The marks are read where the tests are collected, on the workers, and handed to the controller's
scheduler in a folder of the run's. pytest-xdist 3.8's own loadgroup hands them over by
appending "@name" to each test's id, which pytest 9.2's structured ids no longer take
(pytest-dev/pytest-xdist#1386): its groups are silently split. The hooks are tests/conftest.py's."""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

GROUPS_FOLDER = pytest.StashKey[str]()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(The controller, for each worker it starts.) The folder the workers write their groups in."""
    stash = node.config.stash
    if GROUPS_FOLDER not in stash:
        stash[GROUPS_FOLDER] = tempfile.mkdtemp(prefix="xdist-groups-")
    node.workerinput["xdist_groups_folder"] = stash[GROUPS_FOLDER]


def pytest_unconfigure(config):
    if GROUPS_FOLDER in config.stash:
        shutil.rmtree(config.stash[GROUPS_FOLDER], ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """(A worker, once it has collected.) {test id: group} of the marked tests, into the folder,
    before the worker tells the controller it has collected."""
    folder = getattr(config, "workerinput", {}).get("xdist_groups_folder")
    if not folder:
        return
    groups = {}
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark:
            groups[item.nodeid] = str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    path = Path(folder) / f"{config.workerinput['workerid']}.json"
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(groups))
    os.replace(partial, path)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class FilesAndGroups(LoadScopeScheduling):
        """LoadScopeScheduling's work units (dealt largest first), scoped by file or group."""

        groups = None

        def _split_scope(self, nodeid):
            if self.groups is None:  # every worker has collected (and written) by now
                self.groups = {}
                for path in Path(config.stash[GROUPS_FOLDER]).glob("*.json"):
                    self.groups.update(json.loads(path.read_text()))
            return self.groups.get(nodeid) or nodeid.split("::", 1)[0]

    return FilesAndGroups(config, log)
