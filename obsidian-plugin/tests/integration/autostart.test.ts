// "Start the backend when Obsidian starts", for real: the plugin's autostart spawns the real
// `cortexgraph-vault serve` for a vault, waits for it, and stopping it ends the process.

import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { autostart } from "../../src/backend/autostart";
import { Backend } from "../../src/backend/backend";
import { BackendProcess } from "../../src/backend/server-process";
import { fetchTransport } from "../support/fetch-transport";
import { nodeTimers } from "../support/fake-transport";
import { backendProgram, freePort, makeSampleVault } from "./daemon";

// last made, first undone: the backend is stopped (and has exited) before its folder goes
const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("autostart with the real backend", () => {
  it("starts cortexgraph-vault serve for the vault, connects, and stops it on unload", async () => {
    const { root, vault, env } = makeSampleVault();
    const saved = { ...process.env };
    Object.assign(process.env, env);
    cleanups.push(() => {
      process.env = saved;
      rmSync(root, { recursive: true, force: true });
    });
    const port = await freePort();
    const exits: unknown[] = [];
    const proc = new BackendProcess((code, out) => exits.push({ code, out }));
    cleanups.push(() => proc.stop());
    const backend = new Backend({ baseUrl: `http://127.0.0.1:${port}`, token: () => null, timeoutMs: 5_000 }, fetchTransport, nodeTimers);
    const notes: string[] = [];
    const up = await autostart({ backend, process: proc, command: backendProgram(), vaultPath: vault, port, notify: (m) => notes.push(m), timers: nodeTimers, waitMs: 30_000 });
    expect(notes).toEqual([]);
    expect(up).toBe(true);
    expect(proc.running).toBe(true);
    expect(backend.state.kind).toBe("online");

    await proc.stop(); // resolves once it has exited: its last writes done, nothing left running
    expect((await backend.probe()).kind).toBe("offline");
    expect(exits).toEqual([]);
  });
});
