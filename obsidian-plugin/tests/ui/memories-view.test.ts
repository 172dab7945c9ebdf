// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import type { WorkspaceLeaf } from "obsidian";
import { MemoryActions } from "../../src/actions/memory-actions";
import { MEMORIES_VIEW, MemoriesView } from "../../src/ui/memories-view";
import { backendOver, servingMemories } from "../support/backend";
import { aMemory, NOW } from "../support/memories";
import { FakeNotes } from "../support/open-notes";

describe("MemoriesView", () => {
  it("shows the memories when opened and lets go of everything when closed", async () => {
    const backend = backendOver(servingMemories(() => [aMemory({ title: "Coffee" })]));
    const actions = new MemoryActions(backend, new FakeNotes(), () => undefined);
    const view = new MemoriesView({} as WorkspaceLeaf, { backend, actions, now: () => NOW, showHistory: () => undefined, promote: async () => undefined });
    expect(view.getViewType()).toBe(MEMORIES_VIEW);
    expect(view.getDisplayText()).toBe("Memories");
    view.load();
    await view.onOpen();
    expect(view.contentEl.querySelector(".cg-title")?.textContent).toBe("Coffee");
    const listeners = backend as unknown as { listenerCount(n: string): number };
    expect(listeners.listenerCount("changed")).toBe(1);
    await view.onClose();
    expect(listeners.listenerCount("changed")).toBe(0);
    expect(view.contentEl.childElementCount).toBe(0);
  });
});
