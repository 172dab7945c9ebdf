"""`python -m release [--out DIR]`: everything a release ships, built into DIR (default dist/).

Run by `./scripts/package`, which first installs the tools it needs (the dev dependencies,
`@anthropic-ai/mcpb` in tools/mcpb, the plugin's npm packages) and builds the plugin's main.js.

- the wheel and the sdist (`python -m build --no-isolation`: this environment's setuptools);
- `cortexgraph-vault-VERSION.mcpb`, the Claude Desktop bundle, checked by `mcpb validate`
  and packed by `mcpb pack`;
- `cortexgraph-memories-VERSION.zip`, the Obsidian plugin's release files (main.js,
  manifest.json, styles.css), which are also the assets of the release's tag;
- `server.json` (MCP registry), kept at the repository's root and copied beside them.

The version is `__version__` of the package; server.json and the plugin's manifest,
package.json, lockfile and versions.json are brought to it first (the files changed are
named: commit them).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from release.bundle import bundle_folder
from release.versions import PLUGIN, REPO, stamp, version

MCPB_TOOL = REPO / "tools" / "mcpb"
PLUGIN_FILES = ("main.js", "manifest.json", "styles.css")
PLUGIN_ID = "cortexgraph-memories"


def say(line: str) -> None:
    print(line, flush=True)


def mcpb(*args: str) -> None:
    program = MCPB_TOOL / "node_modules" / ".bin" / "mcpb"
    if not program.exists():
        raise SystemExit(f"{program}: not installed; run `npm ci --prefix tools/mcpb`")
    subprocess.run([str(program), *args], check=True)


def python_packages(out: Path) -> list[Path]:
    build = out / "python-build"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(build), str(REPO)],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:  # its pages of progress are shown only when they explain a failure
        print(built.stdout + built.stderr, file=sys.stderr)
        raise SystemExit(f"python -m build failed (exit {built.returncode})")
    made = []
    for path in sorted(build.iterdir()):
        made.append(Path(shutil.move(path, out / path.name)))
    build.rmdir()
    shutil.rmtree(REPO / "build", ignore_errors=True)  # setuptools' scratch folder
    return made


def claude_bundle(out: Path, v: str) -> Path:
    folder = bundle_folder(out / "mcpb-bundle", v)
    mcpb("validate", str(folder / "manifest.json"))
    target = out / f"cortexgraph-vault-{v}.mcpb"
    mcpb("pack", str(folder), str(target))
    shutil.rmtree(folder)
    return target


def plugin_zip(out: Path, v: str) -> Path:
    plugin = REPO / PLUGIN
    missing = [name for name in PLUGIN_FILES if not (plugin / name).is_file()]
    if missing:
        raise SystemExit(
            f"{plugin}: {', '.join(missing)} missing; build the plugin first "
            "(`cd obsidian-plugin && npm ci && npm run build`)"
        )
    target = out / f"{PLUGIN_ID}-{v}.zip"
    # Obsidian's own layout: the plugin's folder, named by its id, holding the three files.
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for name in PLUGIN_FILES:
            z.write(plugin / name, f"{PLUGIN_ID}/{name}")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m release", description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="where to build")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    v = version()
    for path in stamp():
        say(f"version {v} written into {path.relative_to(REPO)} (commit it)")
    out.mkdir(parents=True, exist_ok=True)
    made = python_packages(out)
    made.append(claude_bundle(out, v))
    made.append(plugin_zip(out, v))
    made.append(Path(shutil.copyfile(REPO / "server.json", out / "server.json")))
    say(f"cortexgraph-vault {v}, in {out}:")
    for path in made:
        say(f"  {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
