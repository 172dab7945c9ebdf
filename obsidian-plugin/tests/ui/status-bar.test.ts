// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { MemoryActions } from "../../src/actions/memory-actions";
import { ActiveMemory } from "../../src/backend/active-memory";
import { SyncState } from "../../src/backend/sync-state";
import { MemoryStatusBar } from "../../src/ui/status-bar";
import { json } from "../support/fake-transport";
import { backendOver, refusedTransport, servingMemories } from "../support/backend";
import { aMemory } from "../support/memories";
import { FakeNotes } from "../support/open-notes";

describe("MemoryStatusBar", () => {
  it("shows the active memory's live score and reinforces it on click", async () => {
    let uses = 2;
    const transport = servingMemories(() => [])
      .on("GET /api/v1/memories/lookup", () => json(200, aMemory({ id: "m1", path: "_stm/A.md", use_count: uses, score: uses === 2 ? 0.3 : 0.7 })))
      .on("POST /api/v1/memories/m1/touch", () => {
        uses += 1;
        return json(200, { success: true, memory_id: "m1", id: "m1", path: "_stm/A.md", old_score: 0.3, new_score: 0.7, use_count: uses, strength: 1 });
      });
    const backend = backendOver(transport);
    const active = new ActiveMemory(backend);
    const el = document.createElement("div");
    const bar = new MemoryStatusBar(el, backend, active, new MemoryActions(backend, new FakeNotes(), () => undefined), () => undefined);
    bar.load();
    await active.track("_stm/A.md");
    expect(el.textContent).toBe("Memory 0.30 · Fading");
    expect(el.getAttribute("aria-label")).toContain("Click to reinforce");
    el.click();
    await expect.poll(() => el.textContent).toBe("Memory 0.70 · Active");
    expect(uses).toBe(3);
    bar.unload();
  });

  it("shows offline and checks again on click", async () => {
    const backend = backendOver(refusedTransport());
    const active = new ActiveMemory(backend);
    const el = document.createElement("div");
    const bar = new MemoryStatusBar(el, backend, active, new MemoryActions(backend, new FakeNotes(), () => undefined), () => undefined);
    bar.load();
    await backend.probe();
    expect(el.textContent).toBe("Memories: offline");
    expect(el.classList.contains("cg-status-offline")).toBe(true);
    bar.unload();
  });

  it("shows what the last sync did, and a failed sync until the next one", async () => {
    const backend = backendOver(servingMemories(() => []));
    const active = new ActiveMemory(backend);
    const sync = new SyncState();
    const el = document.createElement("div");
    const bar = new MemoryStatusBar(el, backend, active, new MemoryActions(backend, new FakeNotes(), () => undefined), () => undefined, sync);
    bar.load();
    expect(el.textContent).toBe("Memories");
    sync.record({
      kind: "synced",
      result: {
        remote: "origin", branch: "main", recorded: 1, received: 2, sent: 2, merged_count: 3, merged: [],
        conflicted: [], decisions: [], conflicts: 0, device: "laptop", sources: ["desktop"], commit: "abc", up_to_date: false,
        message: "3 memories merged from desktop; sent 2 commits",
      },
    });
    expect(el.textContent).toBe("Memories · 3 memories merged from desktop · 2 changes sent");
    expect(el.getAttribute("aria-label")).toContain("Last sync: 3 memories merged from desktop; sent 2 commits");
    expect(el.classList.contains("cg-sync-failed")).toBe(false);
    sync.record({ kind: "failed", reason: "the remote could not be reached; check the network" });
    expect(el.textContent).toBe("Memories · Sync failed: the remote could not be reached");
    expect(el.getAttribute("aria-label")).toContain("Sync failed: the remote could not be reached; check the network");
    expect(el.classList.contains("cg-sync-failed")).toBe(true);
    sync.record({ kind: "failed", reason: "no remote to sync with", at: "2026-12-01T12:05:00Z" });
    expect(el.getAttribute("aria-label")).toContain("Last sync (2026-12-01T12:05:00Z): Sync failed: no remote to sync with");
    bar.unload();
  });
});
