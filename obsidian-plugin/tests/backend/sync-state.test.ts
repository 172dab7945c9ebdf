import { describe, expect, it } from "vitest";
import { SyncState } from "../../src/backend/sync-state";
import { backendOver, refusedTransport } from "../support/backend";
import { FakeTransport, json } from "../support/fake-transport";

const result = {
  remote: "origin", branch: "main", recorded: 0, received: 1, sent: 0, merged_count: 2, merged: [],
  conflicted: [], decisions: [], conflicts: 0, device: "laptop", sources: ["desktop"], commit: "abc", up_to_date: false,
  message: "2 memories merged from desktop",
};

describe("SyncState", () => {
  it("keeps the last outcome and tells listeners of each new one", () => {
    const state = new SyncState();
    const heard: string[] = [];
    state.onChanged((outcome) => heard.push(outcome.kind === "failed" ? outcome.reason : "synced"));
    expect(state.last).toBeNull();
    state.record({ kind: "failed", reason: "no remote to sync with" });
    state.record({ kind: "failed", reason: "the remote refused our credentials" });
    expect(state.last).toEqual({ kind: "failed", reason: "the remote refused our credentials" });
    expect(heard).toEqual(["no remote to sync with", "the remote refused our credentials"]);
  });

  it("picks up a sync the daemon reports (run by the CLI or an assistant), each record once", async () => {
    let last: unknown = { at: null, ok: false, result: null, error: null };
    const backend = backendOver(new FakeTransport().on("GET /api/v1/sync", () => json(200, last)));
    const state = new SyncState();
    let heard = 0;
    state.onChanged(() => (heard += 1));
    await state.refresh(backend);
    expect(state.last).toBeNull();
    last = { at: "2026-12-01T12:01:00Z", ok: true, result, error: null };
    await state.refresh(backend);
    await state.refresh(backend);
    expect(state.last).toEqual({ kind: "synced", result, at: "2026-12-01T12:01:00Z" });
    expect(heard).toBe(1);
    last = { at: "2026-12-01T12:05:00Z", ok: false, result: null, error: "the remote could not be reached" };
    await state.refresh(backend);
    expect(state.last).toEqual({ kind: "failed", reason: "the remote could not be reached", at: "2026-12-01T12:05:00Z" });
    expect(heard).toBe(2);
  });

  it("tells a refusal from a success that follows it within the same second", async () => {
    let last: unknown = { at: "2026-12-01T12:01:00Z", ok: false, result: null, error: "no remote to sync with" };
    const backend = backendOver(new FakeTransport().on("GET /api/v1/sync", () => json(200, last)));
    const state = new SyncState();
    await state.refresh(backend);
    expect(state.last?.kind).toBe("failed");
    last = { at: "2026-12-01T12:01:00Z", ok: true, result, error: null };
    await state.refresh(backend);
    expect(state.last).toEqual({ kind: "synced", result, at: "2026-12-01T12:01:00Z" });
  });

  it("keeps what it had when the daemon is not there", async () => {
    const state = new SyncState();
    state.record({ kind: "synced", result });
    await state.refresh(backendOver(refusedTransport()));
    expect(state.last).toEqual({ kind: "synced", result });
  });
});
