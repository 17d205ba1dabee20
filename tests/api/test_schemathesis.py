"""schemathesis, `--checks all`, against a live server: what an integrator's fuzzer would find."""

import subprocess
import sys


def test_schemathesis_finds_nothing(imported, live_server, tmp_path):
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{live_server.url}/openapi.json",
        "--url", live_server.url,
        "--checks", "all",
        "--max-examples", "5",  # a bounded run: the whole api suite stays well under a minute
        "--seed", "1",
        "--workers", "2",
    ]  # fmt: skip
    # In tmp_path: hypothesis keeps its example database in the working directory.
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No issues found" in result.stdout
