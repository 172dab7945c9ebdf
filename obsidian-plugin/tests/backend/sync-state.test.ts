import { describe, expect, it } from "vitest";
import { SyncState } from "../../src/backend/sync-state";

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
});
