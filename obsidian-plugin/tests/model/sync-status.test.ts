import { describe, expect, it } from "vitest";
import type { SyncResult } from "../../src/api/types";
import { syncStatus } from "../../src/model/sync-status";

const base: SyncResult = {
  remote: "origin", branch: "main", recorded: 0, received: 2, sent: 0, merged_count: 3,
  merged: ["_stm/A.md", "_stm/B.md", "_stm/C.md"], conflicted: [], decisions: [], conflicts: 0, device: "laptop",
  sources: ["desktop"], commit: "abc", up_to_date: false, message: "3 memories merged from desktop",
};

describe("syncStatus", () => {
  it("says how many memories came in and from which device", () => {
    expect(syncStatus({ kind: "synced", result: base })).toEqual({
      text: "3 memories merged from desktop",
      tooltip: "3 memories merged from desktop",
    });
  });

  it("names several devices, what was sent and what needs a person", () => {
    const result = { ...base, merged_count: 1, sent: 2, sources: ["phone", "desktop"], conflicted: ["_stm/A.md"], conflicts: 1 };
    expect(syncStatus({ kind: "synced", result }).text).toBe(
      "1 memory merged from phone and desktop · 2 changes sent · 1 to resolve",
    );
  });

  it("falls back to the remote when no device is named (an older backend)", () => {
    const { sources: _sources, conflicts: _conflicts, ...older } = base;
    expect(syncStatus({ kind: "synced", result: older as SyncResult }).text).toBe("3 memories merged from origin");
  });

  it("says only what went out when nothing came in", () => {
    const result = { ...base, received: 0, merged_count: 0, sent: 1, sources: [] };
    expect(syncStatus({ kind: "synced", result }).text).toBe("1 change sent");
  });

  it("says up to date when nothing moved", () => {
    const result = { ...base, received: 0, sent: 0, merged_count: 0, up_to_date: true, message: "already in step with origin" };
    expect(syncStatus({ kind: "synced", result })).toEqual({ text: "Memories up to date", tooltip: "already in step with origin" });
  });

  it("shows the first clause of a failure, the whole reason in the tooltip", () => {
    const reason = "your own notes have uncommitted changes (Home.md); sync never commits them";
    expect(syncStatus({ kind: "failed", reason })).toEqual({
      text: "Sync failed: your own notes have uncommitted changes (Home.md)",
      tooltip: `Sync failed: ${reason}`,
    });
    const long = syncStatus({ kind: "failed", reason: "x".repeat(100) }).text;
    expect(long).toBe(`Sync failed: ${"x".repeat(59)}…`);
  });
});
