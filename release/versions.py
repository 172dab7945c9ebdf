"""One version number, written once (`__version__` in cortexgraph_vault/__init__.py), and every
file that repeats it: `stamp` writes it there, `places` reads what each one says."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PLUGIN = "obsidian-plugin"


def version(repo: Path = REPO) -> str:
    """`__version__` as written in the package, read without importing it."""
    source = (repo / "cortexgraph_vault" / "__init__.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "__version__"
        ]:
            value = ast.literal_eval(node.value)
            if isinstance(value, str):
                return value
    raise ValueError(f'{repo}/cortexgraph_vault/__init__.py: no `__version__ = "..."` line')


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def write_json(path: Path, data: Any) -> bool:
    """Write `data` as the repository formats JSON (two spaces, a final newline); False when the
    file already says exactly that."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def min_app_version(repo: Path = REPO) -> str:
    found: str = read_json(repo / PLUGIN / "manifest.json")["minAppVersion"]
    return found


def stamp(repo: Path = REPO) -> list[Path]:
    """Write the version into server.json and the plugin's manifest, package.json and
    lockfile, and map it to the plugin's minAppVersion in versions.json (earlier releases
    kept). The files changed."""
    from release.server_json import server_json

    v = version(repo)
    changed = [repo / "server.json"] if write_json(repo / "server.json", server_json(v)) else []
    plugin = repo / PLUGIN
    manifest = read_json(plugin / "manifest.json")
    manifest["version"] = v
    package = read_json(plugin / "package.json")
    package["version"] = v
    lock = read_json(plugin / "package-lock.json")
    lock["version"] = v
    lock["packages"][""]["version"] = v
    versions = read_json(plugin / "versions.json")
    versions[v] = manifest["minAppVersion"]
    for name, data in (
        ("manifest.json", manifest),
        ("package.json", package),
        ("package-lock.json", lock),
        ("versions.json", versions),
    ):
        if write_json(plugin / name, data):
            changed.append(plugin / name)
    return changed


def places(repo: Path = REPO) -> dict[str, str]:
    """Where the version is repeated in the repository, and what each place says."""
    plugin = repo / PLUGIN
    lock = read_json(plugin / "package-lock.json")
    server = read_json(repo / "server.json")
    versions = read_json(plugin / "versions.json")
    newest = max(versions, key=lambda s: tuple(int(p) for p in s.split(".") if p.isdigit()))
    spec = read_json(repo / "docs" / "openapi.json")
    return {
        "cortexgraph_vault/__init__.py __version__": version(repo),
        "docs/openapi.json info.version": spec["info"]["version"],
        "obsidian-plugin/manifest.json version": read_json(plugin / "manifest.json")["version"],
        "obsidian-plugin/package.json version": read_json(plugin / "package.json")["version"],
        "obsidian-plugin/package-lock.json version": lock["version"],
        'obsidian-plugin/package-lock.json packages[""].version': lock["packages"][""]["version"],
        "obsidian-plugin/versions.json newest": newest,
        "server.json version": server["version"],
        **{
            f"server.json packages[{i}].version": p["version"]
            for i, p in enumerate(server["packages"])
        },
    }
