// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import type { App } from "obsidian";
import { MemoryActions } from "../../src/actions/memory-actions";
import type { HistoryResult } from "../../src/api/types";
import { HistoryModal } from "../../src/ui/history-modal";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver } from "../support/backend";
import { FakeNotes } from "../support/open-notes";

const commits = [
  { sha: "d".repeat(40), short: "ddddddd", time: "2026-11-28T10:00:00Z", author: "cortexgraph", summary: "gc: forget 2 memories", change: "deleted", path: "_stm/Gone.md" },
  { sha: "b".repeat(40), short: "bbbbbbb", time: "2026-11-20T10:00:00Z", author: "Maya", summary: "touch", change: "modified", path: "_stm/Gone.md" },
];

function setup(history: HistoryResult, status = "active") {
  const restores: unknown[] = [];
  const transport = new FakeTransport()
    .on("GET /api/v1/memories/gone-id/versions/" + "b".repeat(40), () =>
      json(200, { memory_id: "gone-id", commit: "b".repeat(40), path: "_stm/Gone.md", text: "---\nid: gone-id\nuse_count: 2\n---\nThe ramen place on Fifth.\n" }),
    )
    .on("POST /api/v1/memories/gone-id/restore", (r) => {
      restores.push(JSON.parse(r.body!));
      return json(200, { success: true, memory_id: "gone-id", path: "_stm/Gone.md", restored_from: "b".repeat(40), commit: "e", message: "restored" });
    });
  const notes = new FakeNotes();
  const notified: string[] = [];
  const actions = new MemoryActions(backendOver(transport), notes, (m) => notified.push(m));
  const modal = new HistoryModal({} as App, actions, { id: "gone-id", path: "_stm/Gone.md", title: "Gone", status }, history);
  modal.open();
  return { modal, restores, notes, notified };
}

const click = (el: Element | null | undefined) => (el as HTMLElement).click();
const buttonNamed = (root: HTMLElement, text: string) => [...root.querySelectorAll("button")].find((b) => b.textContent === text);

describe("HistoryModal", () => {
  it("lists the commits of a memory, newest first", () => {
    const { modal } = setup({ memory_id: "gone-id", path: null, exists: false, commits, notice: null });
    expect(modal.titleEl.textContent).toBe("History of Gone");
    const items = [...modal.contentEl.querySelectorAll(".cg-commit")];
    expect(items.map((i) => i.querySelector(".cg-commit-summary")?.textContent)).toEqual(["gc: forget 2 memories", "touch"]);
    expect(items[1]?.querySelector(".cg-commit-meta")?.textContent).toContain("bbbbbbb");
    expect(items[1]?.querySelector(".cg-commit-meta")?.textContent).toContain("modified");
  });

  it("shows an old version read-only, properties apart from the text, and restores it", async () => {
    const { modal, restores, notes, notified } = setup({ memory_id: "gone-id", path: null, exists: false, commits, notice: null });
    click(modal.contentEl.querySelectorAll(".cg-commit-summary")[1]);
    await expect.poll(() => modal.contentEl.querySelector(".cg-version-body")?.textContent).toContain("The ramen place on Fifth.");
    expect(modal.titleEl.textContent).toBe("Gone at bbbbbbb");
    expect(modal.contentEl.querySelector(".cg-version-properties")?.textContent).toBe("id: gone-id\nuse_count: 2");
    expect(modal.contentEl.querySelector("textarea, [contenteditable]")).toBeNull();
    click(buttonNamed(modal.contentEl, "Restore this version"));
    await expect.poll(() => restores).toEqual([{ commit: "b".repeat(40) }]);
    await expect.poll(() => (modal as unknown as { isOpen: boolean }).isOpen).toBe(false);
    expect(notes.opened).toEqual(["_stm/Gone.md"]);
    expect(notified).toEqual(['Restored "Gone" to _stm/Gone.md']);
  });

  it("offers no restore over a memory that still exists", async () => {
    const { modal } = setup({ memory_id: "gone-id", path: "_stm/Gone.md", exists: true, commits: commits.slice(1), notice: null });
    click(modal.contentEl.querySelector(".cg-commit-summary"));
    await expect.poll(() => modal.contentEl.querySelector(".cg-version-body")).not.toBeNull();
    expect(buttonNamed(modal.contentEl, "Restore this version")).toBeUndefined();
    click(buttonNamed(modal.contentEl, "Back to history"));
    expect(modal.contentEl.querySelectorAll(".cg-commit")).toHaveLength(1);
  });

  it("brings an archived memory back from the archive", async () => {
    const { modal, restores } = setup({ memory_id: "gone-id", path: "_archive/Gone.md", exists: true, commits: commits.slice(1), notice: null }, "archived");
    click(buttonNamed(modal.contentEl, "Restore from archive"));
    await expect.poll(() => restores).toEqual([{}]);
  });
});
