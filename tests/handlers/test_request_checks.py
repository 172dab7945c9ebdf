"""The shared request checks: the statuses asked for, folder filters; each refusal names the
argument."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.core.memory import STATUSES
from cortexgraph_vault.errors import UnsafePath
from cortexgraph_vault.handlers.request_checks import vault_folder, wanted_statuses
from tests.builders import a_vault, service_for


def test_statuses_one_several_all_or_the_default() -> None:
    known = tuple(STATUSES)
    assert wanted_statuses(None, known=known, default=["active"]) == {"active"}
    assert wanted_statuses("archived", known=known, default=["active"]) == {"archived"}
    assert wanted_statuses(["active", "archived"], known=known, default=[]) == {
        "active",
        "archived",
    }
    assert wanted_statuses("all", known=known, default=[]) == set(known)


def test_a_folder_filter_stays_inside_the_vault(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {"Projects/Atlas.md": "# Atlas\n"})
    engine = service_for(vault).engine
    assert vault_folder(engine, "folder", None) is None
    assert vault_folder(engine, "folder", " / ") is None
    assert vault_folder(engine, "folder", "Projects/") == "Projects"
    with pytest.raises(UnsafePath, match=r"^folder: "):
        vault_folder(engine, "folder", "../elsewhere")
