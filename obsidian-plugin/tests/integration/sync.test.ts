// A sync run by another process (the command line) is reported by the real daemon and shown by
// the plugin's status-bar state: first a refusal (no remote), then what was sent.

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backend } from "../../src/backend/backend";
import { SyncState } from "../../src/backend/sync-state";
import { syncStatus } from "../../src/model/sync-status";
import { fetchTransport } from "../support/fetch-transport";
import { nodeTimers } from "../support/fake-transport";
import { backendProgram, startDaemon, type RunningDaemon } from "./daemon";

let daemon: RunningDaemon;
let backend: Backend;

beforeAll(async () => {
  daemon = await startDaemon();
  backend = new Backend({ baseUrl: daemon.baseUrl, token: () => daemon.token, timeoutMs: 30_000 }, fetchTransport, nodeTimers);
});

afterAll(async () => {
  await daemon?.stop();
});

function cliSync(): { status: number | null; stderr: string } {
  const env = { ...process.env, ...daemon.env, CORTEXGRAPH_VAULT: daemon.vault, CORTEXGRAPH_DEVICE_NAME: "laptop" };
  const result = spawnSync(backendProgram(), ["sync"], { env, encoding: "utf8", timeout: 120_000 });
  return { status: result.status, stderr: result.stderr };
}

describe("a sync run on the command line", () => {
  it("shows its refusal, then what it sent, in the status-bar state", async () => {
    const state = new SyncState();
    await state.refresh(backend);
    expect(state.last).toBeNull();

    const refused = cliSync();
    expect(refused.status).toBe(7);
    await state.refresh(backend);
    expect(state.last?.kind).toBe("failed");
    expect(syncStatus(state.last!).text).toMatch(/^Sync failed: /);
    expect(syncStatus(state.last!).tooltip).toContain("no remote to sync with");

    const remote = join(daemon.vault, "..", "remote.git");
    spawnSync("git", ["init", "-q", "--bare", remote], { env: { ...process.env, ...daemon.env } });
    daemon.git("remote", "add", "origin", remote);
    const sent = cliSync();
    expect(sent.status, sent.stderr).toBe(0);
    await state.refresh(backend);
    expect(state.last?.kind).toBe("synced");
    if (state.last?.kind !== "synced") return;
    expect(state.last.result.device).toBe("laptop");
    expect(state.last.result.sent).toBeGreaterThan(0);
    expect(syncStatus(state.last).text).toMatch(/^\d+ changes? sent$/);
  });
});
