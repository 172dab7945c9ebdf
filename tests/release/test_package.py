"""`./scripts/package`: what it builds, checked file by file."""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
import zipfile
from pathlib import Path

from release.bundle import manifest
from release.server_json import REGISTRY_NAME, server_json
from tests.release.conftest import IN_THE_CHECKOUT, REPO, Dist

pytestmark = IN_THE_CHECKOUT

MCPB = REPO / "tools" / "mcpb" / "node_modules" / ".bin" / "mcpb"


def test_the_package_script_builds_every_release_file(dist: Dist) -> None:
    v = dist.version
    assert sorted(p.name for p in dist.folder.iterdir()) == sorted([
        f"cortexgraph_vault-{v}-py3-none-any.whl",
        f"cortexgraph_vault-{v}.tar.gz",
        f"cortexgraph-vault-{v}.mcpb",
        f"cortexgraph-memories-{v}.zip",
        "server.json",
    ])  # fmt: skip


def test_the_wheel_holds_the_package_its_data_and_the_command(dist: Dist) -> None:
    with zipfile.ZipFile(dist.one("*.whl")) as z:
        names = set(z.namelist())
        info = f"cortexgraph_vault-{dist.version}.dist-info"
        metadata = z.read(f"{info}/METADATA").decode()
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    assert f"\nVersion: {dist.version}\n" in metadata
    assert "cortexgraph-vault = cortexgraph_vault.cli.main:entry" in entry_points
    tracked = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "cortexgraph_vault"],
        capture_output=True, text=True, check=True,
    ).stdout.strip("\0").split("\0")  # fmt: skip
    assert tracked and set(tracked) <= names, sorted(set(tracked) - names)[:5]
    assert not [n for n in names if n.startswith(("tests/", "release/", "bench/"))]


def test_the_sdist_builds_the_same_package(dist: Dist) -> None:
    with tarfile.open(dist.one("*.tar.gz")) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for needed in ("pyproject.toml", "README.md", "LICENSE", "NOTICE", "cortexgraph_vault/cli/main.py",
                   "cortexgraph_vault/sample_vault/_stm/Prefers TypeScript.md"):  # fmt: skip
        assert needed in names


def test_the_claude_desktop_bundle_asks_for_the_vault_and_starts_the_launcher(dist: Dist) -> None:
    with zipfile.ZipFile(dist.one("*.mcpb")) as z:
        assert sorted(z.namelist()) == ["manifest.json", "server/launch.py"]
        shipped = json.loads(z.read("manifest.json"))
        launcher = z.read("server/launch.py")
    assert shipped == manifest(dist.version)
    assert shipped["manifest_version"] == "0.3"
    assert shipped["version"] == dist.version
    vault = shipped["user_config"]["vault"]
    assert vault["type"] == "directory" and vault["required"] is True
    server = shipped["server"]
    assert server["entry_point"] == "server/launch.py"
    assert server["mcp_config"]["args"] == [
        "${__dirname}/server/launch.py", "--vault", "${user_config.vault}",
    ]  # fmt: skip
    assert launcher == (REPO / "release" / "launch.py").read_bytes()


def test_mcpb_validate_accepts_the_bundle_manifest_and_refuses_a_broken_one(
    dist: Dist, tmp_path: Path
) -> None:
    with zipfile.ZipFile(dist.one("*.mcpb")) as z:
        z.extractall(tmp_path / "bundle")
    good = subprocess.run([str(MCPB), "validate", str(tmp_path / "bundle" / "manifest.json")],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Manifest schema validation passes" in good.stdout
    broken = json.loads((tmp_path / "bundle" / "manifest.json").read_text())
    broken["user_config"]["vault"]["type"] = "folder"  # not a type the spec knows
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    bad = subprocess.run([str(MCPB), "validate", str(tmp_path / "broken.json")],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert bad.returncode != 0
    assert "user_config" in bad.stdout + bad.stderr


def test_the_plugin_zip_holds_the_three_release_files(dist: Dist) -> None:
    plugin = REPO / "obsidian-plugin"
    with zipfile.ZipFile(dist.one("cortexgraph-memories-*.zip")) as z:
        assert sorted(z.namelist()) == [
            "cortexgraph-memories/main.js",
            "cortexgraph-memories/manifest.json",
            "cortexgraph-memories/styles.css",
        ]
        shipped = json.loads(z.read("cortexgraph-memories/manifest.json"))
        assert z.read("cortexgraph-memories/styles.css") == (plugin / "styles.css").read_bytes()
        main_js = z.read("cortexgraph-memories/main.js").decode()
    assert shipped["version"] == dist.version and shipped["isDesktopOnly"] is True
    versions = json.loads((plugin / "versions.json").read_text())
    assert versions[dist.version] == shipped["minAppVersion"]
    assert "module.exports" in main_js and "\n//# sourceMappingURL" not in main_js  # production


def test_server_json_names_the_pypi_package_at_this_version(dist: Dist) -> None:
    shipped = json.loads((dist.folder / "server.json").read_text())
    assert shipped == json.loads((REPO / "server.json").read_text()) == server_json(dist.version)
    assert shipped["name"] == REGISTRY_NAME and len(shipped["description"]) <= 100
    (package,) = shipped["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == "cortexgraph-vault"
    assert package["version"] == dist.version and package["transport"] == {"type": "stdio"}
    args = package["packageArguments"]
    assert [a.get("name", a.get("value")) for a in args] == ["--vault", "mcp"]
    # The registry checks a PyPI package is the server's by this line in its README.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"mcp-name: {REGISTRY_NAME}" in readme


def test_the_readme_names_the_files_the_script_builds(dist: Dist) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"dist/([\w.-]*VERSION[\w.-]*)", readme))
    assert len(named) == 3, named  # the wheel, the bundle, the plugin zip
    built = {p.name for p in dist.folder.iterdir()}
    for name in named:
        assert name.replace("VERSION", dist.version) in built, name
