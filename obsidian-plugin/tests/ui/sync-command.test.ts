import { describe, expect, it } from "vitest";
import { SyncState } from "../../src/backend/sync-state";
import { runSync, syncCommand, syncMessage } from "../../src/ui/sync-command";
import { backendOver, refusedTransport } from "../support/backend";
import { FakeTransport, json } from "../support/fake-transport";

const synced = {
  remote: "origin", branch: "main", recorded: 1, received: 2, sent: 1, merged_count: 3,
  merged: ["_stm/A.md", "_stm/B.md", "_stm/C.md"], conflicted: [], conflicts: 0, device: "laptop", sources: ["origin"], decisions: [], commit: "abc",
  up_to_date: false, message: "3 memories merged from origin; sent 1 commit",
};

function setup(transport: FakeTransport) {
  const notified: string[] = [];
  const backend = backendOver(transport);
  let changed = 0;
  backend.onChanged(() => (changed += 1));
  return { backend, notified, notify: (m: string) => notified.push(m), changed: () => changed };
}

describe("sync command", () => {
  it("syncs through the daemon and says what came in", async () => {
    const t = new FakeTransport().on("POST /api/v1/sync", (r) => {
      expect(JSON.parse(r.body!)).toEqual({});
      return json(200, synced);
    });
    const { backend, notified, notify, changed } = setup(t);
    const result = await runSync(backend, notify);
    expect(result?.merged_count).toBe(3);
    expect(notified).toEqual(["3 memories merged from origin; sent 1 commit"]);
    expect(changed()).toBe(1);
  });

  it("keeps the outcome for the status bar, a failure with its reason", async () => {
    let refuse = false;
    const t = new FakeTransport().on("POST /api/v1/sync", () =>
      refuse ? json(409, { error: "sync_error", detail: "no remote to sync with" }) : json(200, synced),
    );
    const { backend, notify } = setup(t);
    const state = new SyncState();
    const heard: string[] = [];
    state.onChanged((outcome) => heard.push(outcome.kind));
    await runSync(backend, notify, state);
    expect(state.last).toEqual({ kind: "synced", result: synced });
    refuse = true;
    await syncCommand(backend, notify, state).callback?.();
    await expect.poll(() => state.last?.kind).toBe("failed");
    expect(state.last).toEqual({ kind: "failed", reason: "no remote to sync with" });
    expect(heard).toEqual(["synced", "failed"]);
  });

  it("names the notes edited on both devices", () => {
    expect(syncMessage({ ...synced, conflicted: ["_stm/Tea.md"] })).toBe(
      "3 memories merged from origin; sent 1 commit. Edited on two devices, to resolve: _stm/Tea.md",
    );
  });

  it("tells why a sync was refused and changes nothing", async () => {
    const detail = "your own notes have uncommitted changes (Home.md); sync never commits them";
    const t = new FakeTransport().on("POST /api/v1/sync", () => json(409, { error: "sync_error", detail }));
    const { backend, notified, notify, changed } = setup(t);
    expect(await runSync(backend, notify)).toBeNull();
    expect(notified).toEqual([`Sync failed: ${detail}`]);
    expect(changed()).toBe(0);
  });

  it("says the backend is not running", async () => {
    const { backend, notified, notify } = setup(refusedTransport());
    expect(await runSync(backend, notify)).toBeNull();
    expect(notified[0]).toMatch(/^Sync failed: The backend is not running/);
  });

  it("is a palette command with a stable id and no default hotkey", () => {
    const { backend, notify } = setup(new FakeTransport());
    const command = syncCommand(backend, notify);
    expect(command.id).toBe("sync-memories");
    expect(command.name).toBe("Sync memories with the git remote");
    expect(command.hotkeys).toBeUndefined();
  });
});
