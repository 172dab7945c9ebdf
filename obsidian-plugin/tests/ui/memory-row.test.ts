// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import type { MemoryView } from "../../src/api/types";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { renderMemoryRow, type RowHandlers } from "../../src/ui/memory-row";
import { aMemory } from "../support/memories";

function handlers(picked: MemoryView[], withSupersede = true): RowHandlers {
  const base: RowHandlers = { open: () => {}, reinforce: () => {}, promote: () => {}, history: () => {} };
  return withSupersede ? { ...base, supersede: (m) => void picked.push(m) } : base;
}

describe("renderMemoryRow", () => {
  it("offers to mark what a memory replaces, and asks the view to pick it", () => {
    const picked: MemoryView[] = [];
    const memory = aMemory({ id: "berlin-id", title: "I moved to Berlin" });
    const el = document.createElement("div");
    renderMemoryRow(el, memory, { thresholds: DEFAULT_CONFIG.thresholds, now: new Date(), handlers: handlers(picked) });
    const button = el.querySelector<HTMLButtonElement>('[data-action="supersede"]')!;
    expect(button.textContent).toBe("Replaces…");
    button.click();
    expect(picked).toEqual([memory]);
  });

  it("offers it neither for an archived memory nor without a handler", () => {
    const ctx = { thresholds: DEFAULT_CONFIG.thresholds, now: new Date() };
    const archived = document.createElement("div");
    renderMemoryRow(archived, aMemory({ id: "a", status: "archived" }), { ...ctx, handlers: handlers([]) });
    expect(archived.querySelector('[data-action="supersede"]')).toBeNull();
    const plain = document.createElement("div");
    renderMemoryRow(plain, aMemory({ id: "b" }), { ...ctx, handlers: handlers([], false) });
    expect(plain.querySelector('[data-action="supersede"]')).toBeNull();
  });
});
