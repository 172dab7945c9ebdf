import { describe, expect, it } from "vitest";
import { autostart } from "../../src/backend/autostart";
import type { BackendProcess } from "../../src/backend/server-process";
import { FakeTransport, json, nodeTimers } from "../support/fake-transport";
import { backendOver } from "../support/backend";

/** A backend that starts answering once `process.start` has been called. */
function world(options: { alreadyUp?: boolean; startsAnswering?: boolean; dies?: boolean } = {}) {
  let up = options.alreadyUp ?? false;
  const started: unknown[][] = [];
  const transport = new FakeTransport();
  transport.send = async (r) => {
    transport.requests.push(r);
    if (!up) throw new Error("connect ECONNREFUSED");
    return json(200, new URL(r.url).pathname === "/health" ? { ok: true } : { settings: [] });
  };
  let running = false;
  const process = {
    get running() {
      return running;
    },
    start: (...args: unknown[]) => {
      started.push(args);
      running = !options.dies;
      if (options.startsAnswering) setTimeout(() => (up = true), 50);
    },
  } as unknown as BackendProcess;
  const notes: string[] = [];
  const run = () =>
    autostart({
      backend: backendOver(transport),
      process,
      command: "cortexgraph-vault",
      vaultPath: "/Vault",
      port: 47613,
      notify: (m) => notes.push(m),
      timers: nodeTimers,
      waitMs: 1_500,
    });
  return { run, started, notes };
}

describe("autostart", () => {
  it("starts nothing when a backend already answers", async () => {
    const w = world({ alreadyUp: true });
    expect(await w.run()).toBe(true);
    expect(w.started).toEqual([]);
  });

  it("starts the backend for this vault and waits until it answers", async () => {
    const w = world({ startsAnswering: true });
    expect(await w.run()).toBe(true);
    expect(w.started).toEqual([["cortexgraph-vault", "/Vault", 47613]]);
    expect(w.notes).toEqual([]);
  });

  it("stops waiting when the started backend exits", async () => {
    const w = world({ dies: true });
    expect(await w.run()).toBe(false);
  });

  it("says so when the backend never answers", async () => {
    const w = world();
    expect(await w.run()).toBe(false);
    expect(w.notes[0]).toContain("did not answer within 2 s");
  });
});
