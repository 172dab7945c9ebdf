import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BackendProcess, serveArguments } from "../../src/backend/server-process";

const fakeServe = fileURLToPath(new URL("../support/fake-serve.mjs", import.meta.url));
const started: BackendProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const p of started.splice(0)) await p.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete process.env.FAKE_SERVE_ARGS;
  delete process.env.FAKE_SERVE_FAIL;
  delete process.env.FAKE_SERVE_STOPPED;
});

describe("serveArguments", () => {
  it("serves this vault on the configured port", () => {
    expect(serveArguments("/home/maya/Vault", 47613)).toEqual(["serve", "--vault", "/home/maya/Vault", "--port", "47613"]);
  });
});

describe("BackendProcess", () => {
  it("runs the program with the serve arguments and stops it on request, without reporting an exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cg-serve-"));
    folders.push(dir);
    const argsFile = join(dir, "args.json");
    process.env.FAKE_SERVE_ARGS = argsFile;
    const exits: unknown[] = [];
    const proc = new BackendProcess((code, out) => exits.push([code, out]));
    started.push(proc);
    proc.start(fakeServe, "/vault path", 47000);
    expect(proc.running).toBe(true);
    await expect.poll(() => existsSync(argsFile) && readFileSync(argsFile, "utf8")).toBe(JSON.stringify(["serve", "--vault", "/vault path", "--port", "47000"]));
    const stopping = proc.stop();
    expect(proc.running).toBe(false);
    await stopping;
    await new Promise((r) => setTimeout(r, 100));
    expect(exits).toEqual([]);
  });

  it("stopping resolves once the backend has exited, after its last writes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cg-serve-"));
    folders.push(dir);
    const argsFile = join(dir, "args.json");
    const stoppedFile = join(dir, "stopped");
    process.env.FAKE_SERVE_ARGS = argsFile;
    process.env.FAKE_SERVE_STOPPED = stoppedFile;
    const proc = new BackendProcess(() => undefined);
    started.push(proc);
    proc.start(fakeServe, "/v", 47000);
    await expect.poll(() => existsSync(argsFile)).toBe(true); // up, its SIGTERM handler set
    await proc.stop();
    expect(existsSync(stoppedFile)).toBe(true);
    await proc.stop(); // nothing left to stop: at once
  });

  it("reports an unexpected exit with the last lines the backend wrote", async () => {
    process.env.FAKE_SERVE_FAIL = "1";
    const exits: [number | null, string][] = [];
    const proc = new BackendProcess((code, out) => exits.push([code, out]));
    started.push(proc);
    proc.start(fakeServe, "/v", 47000);
    await expect.poll(() => exits.length).toBe(1);
    expect(exits[0]).toEqual([2, "cortexgraph-vault: error: port 47613 is already in use"]);
    expect(proc.running).toBe(false);
  });

  it("reports a program that cannot be found", async () => {
    const exits: [number | null, string][] = [];
    const proc = new BackendProcess((code, out) => exits.push([code, out]));
    started.push(proc);
    proc.start("/nonexistent/cortexgraph-vault", "/v", 47000);
    await expect.poll(() => exits.length, { timeout: 3000 }).toBe(1);
    expect(exits[0]?.[1]).toContain("ENOENT");
  });
});
