"""Property-based fuzzing of the running daemon from the OpenAPI spec it serves (schemathesis).

Every operation gets generated requests, valid and invalid: the coverage phase's boundary
cases in full, then fuzzing bounded as the hypothesis profile bounds a property (20 per
operation under CI's profile, a couple of minutes in all; a tenth of that in a person's run).
No request may cause a server error, every status must be documented, and every response
must match its schema. The daemon's log must show no crash.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import start_daemon
from tests.conftest import examples

EXAMPLES_PER_OPERATION = 20
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


def schemathesis_command() -> list[str]:
    beside = Path(sys.executable).parent / "schemathesis"
    found = str(beside) if beside.exists() else shutil.which("schemathesis")
    if found is None:
        pytest.fail("schemathesis is not installed: pip install -e '.[dev]'")
    return [found]


def test_every_operation_answers_as_documented(tmp_path: Path) -> None:
    daemon = start_daemon(tmp_path / "home", git_sample_vault(tmp_path / "vault"))
    try:
        run = subprocess.run(
            [
                *schemathesis_command(), "run", f"{daemon.url}/api/v1/openapi.json",
                "--header", f"Authorization: Bearer {daemon.token}",
                "--checks", CHECKS, "--max-examples", str(examples(EXAMPLES_PER_OPERATION)),
                "--phases", "coverage,fuzzing", "--workers", "2", "--seed", "20261201",
                "--generation-database", "none", "--no-color", "--output-truncate", "true",
                "--report-dir", str(tmp_path / "report"),
            ],
            capture_output=True, text=True, timeout=600, cwd=tmp_path,
        )  # fmt: skip
    finally:
        assert daemon.stop() == 0
    summary = run.stdout[-6000:]
    assert run.returncode == 0, f"schemathesis found problems:\n{summary}\n{run.stderr[-2000:]}"
    assert re.search(r"Test cases:\s+\d+ generated, \d+ passed", run.stdout), summary
    assert "Traceback" not in daemon.err and "failed" not in daemon.err, daemon.err[-4000:]
