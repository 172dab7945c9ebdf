"""A parse worker loads what a parse needs, not the word index it feeds (its vocabulary, typo
matching, term merging), and starts numpy's BLAS on one thread: it only sorts small arrays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cortexgraph_vault.index.catalog.parallel_parse import ParseWorkers

WORKER_PARSE = """
import sys
from pathlib import Path
from cortexgraph_vault.index.catalog.parallel_parse import parse_file
from cortexgraph_vault.index.text.posting_lists import posting_block
from cortexgraph_vault.vault.layout import VaultLayout
root = Path(sys.argv[1])
rel, note, stats, problem = parse_file(root, "Note.md", VaultLayout(root), 1 << 20)
block = posting_block([(rel, stats)])
assert problem is None and note is not None and "lighthous" in block.terms, block.terms
print(" ".join(sorted(sys.modules)))
"""


def test_a_worker_parses_words_without_loading_the_word_index(tmp_path: Path) -> None:
    (tmp_path / "Note.md").write_text("---\ntags: [sea]\n---\nLighthouses and [[Home]]\n")
    done = subprocess.run(
        [sys.executable, "-c", WORKER_PARSE, str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    loaded = set(done.stdout.split())
    assert "cortexgraph_vault.index.text.document_terms" in loaded  # the words were counted
    for module in ("cortexgraph_vault.index.text.text_index",
                   "cortexgraph_vault.index.text.term_merge", "rapidfuzz"):  # fmt: skip
        assert module not in loaded, f"a parse loaded {module}"


def test_workers_start_blas_on_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    envs: list[dict[str, str]] = []
    real_popen = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        envs.append(kwargs["env"])
        return real_popen(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", popen)
    ParseWorkers(2).stop()
    assert len(envs) == 2
    for env in envs:
        assert env["OPENBLAS_NUM_THREADS"] == env["OMP_NUM_THREADS"] == "1"
        assert env["PATH"] == os.environ["PATH"]  # the rest as this process has it
