#!/usr/bin/env node
// Copies the built plugin (main.js, manifest.json, styles.css) into a vault:
//   npm run install-plugin -- <vault path> [--config-dir <name>]
// The config folder defaults to Obsidian's default; pass --config-dir if the vault uses another.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pluginDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FILES = ["main.js", "manifest.json", "styles.css"];

function fail(message) {
  process.stderr.write(`install-plugin: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let configDir = ".obsidian";
const positional = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--config-dir") configDir = args[++i] ?? fail("--config-dir needs a folder name");
  else positional.push(args[i]);
}
if (positional.length !== 1) fail("give the vault folder: npm run install-plugin -- <vault path>");

const vault = resolve(positional[0]);
if (!existsSync(vault) || !statSync(vault).isDirectory()) fail(`${vault}: not a folder; give the vault's folder`);
if (!existsSync(join(vault, configDir))) {
  fail(`${vault}: has no ${configDir} folder, so it has not been opened in Obsidian yet; open it once, or pass --config-dir`);
}
for (const file of FILES) {
  if (!existsSync(join(pluginDir, file))) fail(`${file} is missing; run npm run build first`);
}

const { id } = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8"));
const target = join(vault, configDir, "plugins", id);
mkdirSync(target, { recursive: true });
for (const file of FILES) copyFileSync(join(pluginDir, file), join(target, file));
process.stdout.write(`Installed ${id} into ${target}\nEnable it in Obsidian: Settings → Community plugins.\n`);
