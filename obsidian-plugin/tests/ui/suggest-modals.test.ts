// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import type { App } from "obsidian";
import type { ForgottenView } from "../../src/api/types";
import { MemoryActions } from "../../src/actions/memory-actions";
import { ForgottenModal, MemorySearchModal } from "../../src/ui/suggest-modals";
import { json } from "../support/fake-transport";
import { backendOver, servingMemories } from "../support/backend";
import { aHit, aMemory } from "../support/memories";
import { FakeNotes } from "../support/open-notes";

const memories = [aMemory({ title: "Oat milk in coffee", score: 0.3 }), aMemory({ title: "Prefers TypeScript", score: 0.9, content: "strict mode" })];

describe("MemorySearchModal", () => {
  it("offers the backend's unified search results and opens the chosen one", async () => {
    const transport = servingMemories(() => memories).on("GET /api/v1/search", () =>
      json(200, { success: true, count: 1, results: [aHit({ title: "Cafés", path: "Places/Cafés.md", score: 0.8 })] }),
    );
    const notes = new FakeNotes();
    const backend = backendOver(transport);
    const modal = new MemorySearchModal({} as App, backend, new MemoryActions(backend, notes, () => undefined));
    const found = await modal.getSuggestions("coffee");
    expect(found.map((f) => f.title)).toEqual(["Cafés"]);
    const el = document.createElement("div");
    modal.renderSuggestion(found[0]!, el);
    expect(el.textContent).toContain("Note · match 0.80");
    modal.onChooseSuggestion(found[0]!);
    await expect.poll(() => notes.opened).toEqual(["Places/Cafés.md"]);
  });

  it("matches memories itself when the backend has no unified search, strongest first", async () => {
    const transport = servingMemories(() => memories).on("GET /api/v1/search", () => json(501, { error: "not_available", detail: "later" }));
    const backend = backendOver(transport);
    const modal = new MemorySearchModal({} as App, backend, new MemoryActions(backend, new FakeNotes(), () => undefined));
    expect((await modal.getSuggestions("strict")).map((f) => f.title)).toEqual(["Prefers TypeScript"]);
    expect((await modal.getSuggestions("")).map((f) => f.title)).toEqual(["Prefers TypeScript", "Oat milk in coffee"]);
  });
});

describe("ForgottenModal", () => {
  const forgotten: ForgottenView[] = [
    { id: "a", title: "Ramen place", path: "_stm/Ramen place.md", kind: "deleted", deleted_in: "abc", deleted_at: "2026-11-20T10:00:00Z", preview: "On Fifth street" },
    { id: "b", title: "Standing desk", path: "_stm/Standing desk.md", kind: "deleted", deleted_in: "abc", deleted_at: "2026-11-20T10:00:00Z", preview: "Borrowed from Jonas" },
  ];

  it("filters forgotten memories by title and text and restores the chosen one", async () => {
    const restored: unknown[] = [];
    const transport = servingMemories(() => []).on("POST /api/v1/memories/b/restore", () => {
      restored.push("b");
      return json(200, { success: true, memory_id: "b", path: "_stm/Standing desk.md", restored_from: "x", commit: "y", message: "ok" });
    });
    const backend = backendOver(transport);
    const notes = new FakeNotes();
    const modal = new ForgottenModal({} as App, forgotten, new MemoryActions(backend, notes, () => undefined));
    expect(modal.getSuggestions("jonas").map((f) => f.title)).toEqual(["Standing desk"]);
    expect(modal.getSuggestions("")).toHaveLength(2);
    modal.onChooseSuggestion(forgotten[1]!);
    await expect.poll(() => notes.opened).toEqual(["_stm/Standing desk.md"]);
    expect(restored).toEqual(["b"]);
  });

  it("says when git has nothing forgotten", () => {
    const modal = new ForgottenModal({} as App, [], {} as MemoryActions);
    expect(modal.emptyStateText).toBe("Git history has no forgotten memory");
  });
});
