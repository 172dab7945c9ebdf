"""The README's decay table is what the code computes."""

from __future__ import annotations

import re
from pathlib import Path

from cortexgraph_vault.core.decay_table import decay_table_markdown

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_decay_table_matches_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- decay-table:start -->\n(.*?)\n<!-- decay-table:end -->", text, re.S)
    assert match, "README lacks the decay-table markers"
    assert match.group(1) == decay_table_markdown(), (
        "README decay table is stale: paste the output of "
        "`python -m cortexgraph_vault.core.decay_table` between the markers"
    )


def test_readme_quick_start_commands_exist() -> None:
    text = README.read_text(encoding="utf-8")
    for script in ("scripts/demo", "scripts/test"):
        assert f"./{script}" in text
        assert (README.parent / script).is_file()


def test_readme_promotion_table_names_real_settings_with_their_defaults() -> None:
    from cortexgraph_vault.config import BY_NAME, ENV_PREFIX

    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^  \| [^|]+ \| +([\d.]+) \| `(CORTEXGRAPH_\w+)` \|$", text, re.M)
    assert len(rows) == 4, rows
    for default, variable in rows:
        setting = BY_NAME[variable.removeprefix(ENV_PREFIX).lower()]
        assert float(default) == float(setting.default), variable
