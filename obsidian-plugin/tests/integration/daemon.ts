// The real Python backend for integration and browser tests: a temp copy of the sample vault
// (times moved to now, committed to git), isolated config and cache folders, a free port on
// 127.0.0.1, `cortexgraph-vault serve` started and stopped by the test.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CortexClient } from "../../src/api/client";
import { fetchTransport } from "../support/fetch-transport";
import { nodeTimers } from "../support/fake-transport";

const pluginDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The backend's Python: $CORTEXGRAPH_PYTHON, else the repository's ../.venv. */
export function pythonPath(): string {
  return process.env.CORTEXGRAPH_PYTHON ?? join(pluginDir, "..", ".venv", "bin", "python");
}

/** The `cortexgraph-vault` program installed beside that Python. */
export function backendProgram(): string {
  return join(dirname(pythonPath()), "cortexgraph-vault");
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Plugin Test",
  GIT_AUTHOR_EMAIL: "plugin-test@example.org",
  GIT_COMMITTER_NAME: "Plugin Test",
  GIT_COMMITTER_EMAIL: "plugin-test@example.org",
  GIT_CONFIG_NOSYSTEM: "1",
};

export interface RunningDaemon {
  vault: string;
  port: number;
  baseUrl: string;
  token: string;
  env: Record<string, string>;
  client(token?: string | null): CortexClient;
  git(...args: string[]): string;
  read(path: string): string;
  exists(path: string): boolean;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

function run(command: string, args: string[], env: Record<string, string>, cwd?: string): string {
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** A temp folder holding vault/, config/, cache/ and data/, with the sample vault committed. */
export function makeSampleVault(): { root: string; vault: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), "cg-plugin-it-"));
  const vault = join(root, "vault");
  const env: Record<string, string> = {
    ...GIT_IDENTITY,
    GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
    CORTEXGRAPH_CONFIG_DIR: join(root, "config"),
    CORTEXGRAPH_CACHE_DIR: join(root, "cache"),
    CORTEXGRAPH_DATA_DIR: join(root, "data"),
  };
  run(
    pythonPath(),
    [
      "-c",
      "import sys; from datetime import datetime, timezone; from pathlib import Path; " +
        "from cortexgraph_vault.vault.sample import copy_sample_vault; " +
        "copy_sample_vault(Path(sys.argv[1]), datetime.now(timezone.utc).replace(microsecond=0))",
      vault,
    ],
    env,
  );
  run("git", ["init", "-q", "-b", "main"], env, vault);
  run("git", ["add", "-A"], env, vault);
  run("git", ["commit", "-q", "-m", "sample vault"], env, vault);
  return { root, vault, env };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, stderr: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the backend exited with ${child.exitCode}:\n${stderr()}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the backend did not answer within ${timeoutMs / 1000} s:\n${stderr()}`);
}

export async function startDaemon(): Promise<RunningDaemon> {
  const { root, vault, env } = makeSampleVault();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let err = "";
  const child = spawn(backendProgram(), ["serve", "--vault", vault, "--port", String(port)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => (err = (err + chunk).slice(-8000)));
  try {
    await waitForHealth(baseUrl, child, () => err);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  const tokenFile = join(env.CORTEXGRAPH_CONFIG_DIR!, "token");
  const token = readFileSync(tokenFile, "utf8").trim();
  return {
    vault,
    port,
    baseUrl,
    token,
    env,
    client: (t: string | null = token) =>
      new CortexClient({ baseUrl, token: () => t, transport: fetchTransport, timeoutMs: 30_000, timers: nodeTimers }),
    git: (...args: string[]) => run("git", args, env, vault),
    read: (path: string) => readFileSync(join(vault, path), "utf8"),
    exists: (path: string) => existsSync(join(vault, path)),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The value of a top-level frontmatter field as written in the file. */
export function frontmatterField(text: string, name: string): string | undefined {
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, "m").exec(text.split(/\n---/)[0] ?? "");
  return match?.[1]?.trim();
}
