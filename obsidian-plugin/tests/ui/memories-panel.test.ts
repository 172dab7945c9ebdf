// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { MemoryActions } from "../../src/actions/memory-actions";
import type { MemoryView } from "../../src/api/types";
import type { Backend } from "../../src/backend/backend";
import { MemoriesPanel } from "../../src/ui/memories-panel";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver, refusedTransport, servingMemories } from "../support/backend";
import { aHit, aMemory, NOW } from "../support/memories";
import { FakeNotes } from "../support/open-notes";
import { FakeActiveNote } from "../support/active-note";

const panels: MemoriesPanel[] = [];

function mount(backend: Backend, notes = new FakeNotes(), activeNote?: FakeActiveNote) {
  const root = document.createElement("div");
  document.body.appendChild(root);
  const notified: string[] = [];
  const histories: MemoryView[] = [];
  const promoted: MemoryView[] = [];
  const actions = new MemoryActions(backend, notes, (m) => notified.push(m));
  const panel = new MemoriesPanel(root, {
    backend,
    actions,
    now: () => NOW,
    showHistory: (m) => histories.push(m),
    promote: async (m) => void promoted.push(m),
    activeNote,
    relatedOptions: { delayMs: 20, limit: 8 },
  });
  panel.load();
  panels.push(panel);
  return { root, panel, notified, histories, promoted, notes };
}

afterEach(() => {
  for (const p of panels.splice(0)) p.unload();
  document.body.empty();
});

const rows = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(".cg-row")];
const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("MemoriesPanel rows", () => {
  const memories = [
    aMemory({ title: "Oat milk in coffee", score: 0.24, use_count: 3, last_used: "2026-11-27T12:00:00Z", days_until_forgotten: 5.5 }),
    aMemory({ title: "Prefers TypeScript", score: 1.42, use_count: 9, promotable: true, promote_reason: "used 9 times within 14 days (≥ 5)" }),
    aMemory({ title: "Dentist moved", score: 0.03, use_count: 1, days_until_forgotten: 0 }),
    aMemory({ title: "Saved this morning", score: 0.98, use_count: 1, age_days: 0.1, last_used: "2026-11-29T09:00:00Z", days_until_forgotten: 40 }),
  ];

  it("lists memories by score with chip, bar, use count, last used and time until forgotten", async () => {
    const { root, panel } = mount(backendOver(servingMemories(() => memories)));
    await panel.refresh();
    const shown = rows(root);
    expect(shown.map((r) => text(r.querySelector(".cg-title")))).toEqual([
      "Prefers TypeScript",
      "Saved this morning",
      "Oat milk in coffee",
      "Dentist moved",
    ]);
    expect(shown.map((r) => text(r.querySelector(".cg-chip")))).toEqual(["Promotable", "Fresh", "Fading", "About to be forgotten"]);
    expect(shown.map((r) => r.querySelector<HTMLElement>(".cg-bar")?.style.getPropertyValue("--cg-score"))).toEqual([
      "100.0%",
      "98.0%",
      "24.0%",
      "3.0%",
    ]);
    const oat = shown[2]!;
    expect(text(oat.querySelector(".cg-score"))).toBe("Score 0.24");
    expect(text(oat.querySelector(".cg-uses"))).toBe("3 uses");
    expect(text(oat.querySelector(".cg-last-used"))).toBe("Used 2 days ago");
    expect(text(oat.querySelector(".cg-until"))).toBe("Forgotten in 5 days");
    expect(oat.querySelector(".cg-chip")?.getAttribute("title")).toContain("danger zone");
    expect(text(root.querySelector(".cg-summary"))).toBe("4 memories · 1 fading · 1 promotable · 1 about to be forgotten");
  });

  it("marks the promote button of a promotable memory and hides write actions on promoted ones", async () => {
    const kept = aMemory({ title: "Time zone", status: "promoted", score: 1.1, days_until_forgotten: null });
    const { root, panel } = mount(backendOver(servingMemories(() => [...memories, kept])));
    root.querySelector<HTMLSelectElement>(".cg-status-filter")!.value = "all";
    root.querySelector(".cg-status-filter")!.dispatchEvent(new Event("change"));
    await panel.refresh();
    const byTitle = (t: string) => rows(root).find((r) => text(r.querySelector(".cg-title")) === t)!;
    expect(byTitle("Prefers TypeScript").querySelector(".cg-action-promote")?.classList.contains("mod-cta")).toBe(true);
    expect(byTitle("Oat milk in coffee").querySelector(".cg-action-promote")?.classList.contains("mod-cta")).toBe(false);
    const actions = [...byTitle("Time zone").querySelectorAll(".cg-action")].map((b) => text(b));
    expect(actions).toEqual(["Open", "History"]);
    expect(byTitle("Time zone").querySelector(".cg-until")).toBeNull();
  });

  it("filters to one chip group", async () => {
    const { root, panel } = mount(backendOver(servingMemories(() => memories)));
    await panel.refresh();
    const show = root.querySelector<HTMLSelectElement>(".cg-show-filter")!;
    show.value = "forgetting";
    show.dispatchEvent(new Event("change"));
    expect(rows(root).map((r) => text(r.querySelector(".cg-title")))).toEqual(["Dentist moved"]);
  });

  it("reinforces a row: saves the open note first, calls touch, tells the result and reloads", async () => {
    let uses = 3;
    const memory = () => aMemory({ id: "oat-id", title: "Oat milk in coffee", use_count: uses, score: uses === 3 ? 0.24 : 0.61 });
    const log: string[] = [];
    const transport = servingMemories(() => [memory()]).on("POST /api/v1/memories/oat-id/touch", () => {
      log.push("touch");
      uses += 1;
      return json(200, { success: true, memory_id: "oat-id", id: "oat-id", path: "_stm/Oat milk in coffee.md", old_score: 0.24, new_score: 0.61, use_count: uses, strength: 1 });
    });
    const { root, panel, notified, notes } = mount(backendOver(transport), new FakeNotes([], log));
    await panel.refresh();
    root.querySelector<HTMLButtonElement>(".cg-action-reinforce")!.click();
    await expect.poll(() => text(root.querySelector(".cg-uses"))).toBe("4 uses");
    expect(log).toEqual(["save _stm/Oat milk in coffee.md", "touch"]);
    expect(notes.saved).toEqual(["_stm/Oat milk in coffee.md"]);
    expect(notified).toEqual(['Reinforced "Oat milk in coffee": score 0.24 → 0.61, used 4 times']);
    expect(text(root.querySelector(".cg-score"))).toBe("Score 0.61");
  });

  it("opens the history of a row and asks to promote it", async () => {
    const { root, panel, histories, promoted } = mount(backendOver(servingMemories(() => memories)));
    await panel.refresh();
    root.querySelector<HTMLButtonElement>(".cg-action-history")!.click();
    expect(histories.map((m) => m.title)).toEqual(["Prefers TypeScript"]);
    root.querySelector<HTMLButtonElement>(".cg-action-promote")!.click();
    await expect.poll(() => promoted.map((m) => m.title)).toEqual(["Prefers TypeScript"]);
  });
});

describe("MemoriesPanel states", () => {
  it("invites the first memory when there are none", async () => {
    const { root, panel } = mount(backendOver(servingMemories(() => [])));
    await panel.refresh();
    expect(rows(root)).toHaveLength(0);
    expect(text(root.querySelector(".cg-empty"))).toContain("No short-term memories yet");
  });

  it("shows the backend as not running (not as an error) when nothing listens", async () => {
    const { root, panel, notified } = mount(backendOver(refusedTransport()));
    await panel.refresh();
    expect(text(root.querySelector(".cg-offline .cg-placeholder-title"))).toBe("Backend not running");
    expect(text(root.querySelector(".cg-offline"))).toContain("cortexgraph-vault serve");
    expect(root.querySelector(".cg-failure")).toBeNull();
    expect(notified).toEqual([]);
  });

  it("says the token was refused", async () => {
    const transport = new FakeTransport().on("GET /api/v1/memories", () => json(401, { error: "unauthorized", detail: "bad token" }));
    const { root, panel } = mount(backendOver(transport, "wrong"));
    await panel.refresh();
    expect(text(root.querySelector(".cg-unauthorized .cg-placeholder-title"))).toBe("Token refused");
  });

  it("comes back when the backend does", async () => {
    let up = false;
    const live = servingMemories(() => [aMemory({ title: "Back" })]);
    const flaky = new FakeTransport();
    flaky.send = (r) => (up ? live.send(r) : Promise.reject(new Error("connect ECONNREFUSED")));
    const { root, panel } = mount(backendOver(flaky));
    await panel.refresh();
    expect(root.querySelector(".cg-offline")).not.toBeNull();
    up = true;
    root.querySelector<HTMLButtonElement>(".cg-offline button")!.click();
    await expect.poll(() => rows(root).length).toBe(1);
    expect(root.querySelector(".cg-offline")).toBeNull();
  });

  it("shows a request's own failure with the backend's words", async () => {
    const transport = new FakeTransport().on("GET /api/v1/memories", () => json(503, { error: "busy", detail: "the vault lock is held by another process; try again" }));
    const { root, panel } = mount(backendOver(transport));
    await panel.refresh();
    expect(text(root.querySelector(".cg-placeholder"))).toBe("the vault lock is held by another process; try again");
  });
});

describe("MemoriesPanel search", () => {
  const oat = aMemory({ id: "oat", title: "Oat milk in coffee", content: "Takes oat milk", score: 0.3 });
  const ts = aMemory({ id: "ts", title: "Prefers TypeScript", content: "strict mode", score: 0.9 });

  async function typeQuery(root: HTMLElement, q: string) {
    const input = root.querySelector<HTMLInputElement>(".cg-search")!;
    input.value = q;
    input.dispatchEvent(new Event("input"));
  }

  it("uses the backend's unified search and shows memories and notes it finds", async () => {
    const transport = servingMemories(() => [oat, ts]).on("GET /api/v1/search", (_r, url) => {
      expect(url.searchParams.get("q")).toBe("coffee");
      return json(200, { success: true, count: 2, results: [aHit({ id: "oat", path: oat.path, source: "stm" }), aHit({ title: "Cafés I like", path: "Places/Cafés.md" })] });
    });
    const { root, panel } = mount(backendOver(transport));
    await panel.refresh();
    await typeQuery(root, "coffee");
    expect(rows(root).map((r) => text(r.querySelector(".cg-title")))).toEqual(["Oat milk in coffee"]);
    await expect.poll(() => rows(root).map((r) => text(r.querySelector(".cg-title")))).toEqual(["Oat milk in coffee", "Cafés I like"]);
    expect(rows(root)[1]?.classList.contains("cg-row-note")).toBe(true);
  });

  it("falls back to matching the listed memories when the backend has no unified search", async () => {
    const transport = servingMemories(() => [oat, ts]).on("GET /api/v1/search", () => json(501, { error: "not_available", detail: "later" }));
    const { root, panel } = mount(backendOver(transport));
    await panel.refresh();
    await typeQuery(root, "strict");
    await expect.poll(() => rows(root).map((r) => text(r.querySelector(".cg-title")))).toEqual(["Prefers TypeScript"]);
    await typeQuery(root, "nothing-like-this");
    expect(text(root.querySelector(".cg-empty"))).toBe('No memory matches "nothing-like-this"');
  });
});

describe("MemoriesPanel lifecycle", () => {
  it("reloads on the backend's change event and stops listening once unloaded", async () => {
    let count = 1;
    const backend = backendOver(servingMemories(() => Array.from({ length: count }, (_, i) => aMemory({ title: `M${i}` }))));
    const { root, panel } = mount(backend);
    await panel.refresh();
    count = 2;
    backend.notifyChanged();
    await expect.poll(() => rows(root).length).toBe(2);
    panel.unload();
    expect((backend as unknown as { listenerCount(n: string): number }).listenerCount("changed")).toBe(0);
    expect((backend as unknown as { listenerCount(n: string): number }).listenerCount("state")).toBe(0);
  });
});

describe("MemoriesPanel related to this note", () => {
  const running = aHit({ title: "Running", path: "Areas/Running.md", content: "Goal for spring: a half marathon" });
  const goal = aHit({ title: "Half marathon goal", path: "_stm/Half marathon goal.md", source: "stm", id: "goal" });
  const relatedTo: Record<string, unknown[]> = { "_stm/Half marathon goal.md": [running], "Areas/Running.md": [goal] };

  function serving() {
    return servingMemories(() => [aMemory({ title: "Half marathon goal" })]).on("GET /api/v1/related", (_r, url) => {
      const results = relatedTo[url.searchParams.get("path")!];
      return results ? json(200, { success: true, count: results.length, results }) : json(404, { error: "not_found", detail: "no such note" });
    });
  }

  const section = (root: HTMLElement) => root.querySelector<HTMLElement>(".cg-related")!;
  const relatedTitles = (root: HTMLElement) => [...section(root).querySelectorAll(".cg-row .cg-title")].map((el) => text(el));

  it("shows what is related to the active note above the list, and follows the active note", async () => {
    const active = new FakeActiveNote("_stm/Half marathon goal.md");
    const { root, panel, notes } = mount(backendOver(serving()), new FakeNotes(), active);
    await panel.refresh();
    expect(root.firstElementChild).toBe(section(root));
    expect(text(section(root).querySelector("summary .cg-related-title"))).toBe("Related to this note");
    expect(text(section(root).querySelector("summary .cg-related-note"))).toBe("Half marathon goal");
    await expect.poll(() => relatedTitles(root)).toEqual(["Running"]);
    expect(text(section(root).querySelector(".cg-chip"))).toBe("Note");
    expect(text(section(root).querySelector(".cg-preview"))).toBe("Goal for spring: a half marathon");
    section(root).querySelector<HTMLElement>(".cg-row .cg-title")!.click();
    expect(notes.opened).toEqual(["Areas/Running.md"]);

    active.open("Areas/Running.md");
    expect(text(section(root).querySelector(".cg-related-empty"))).toBe("Finding what is related to Running…");
    await expect.poll(() => relatedTitles(root)).toEqual(["Half marathon goal"]);
    expect(text(section(root).querySelector(".cg-chip"))).toBe("Short-term");
    // the memories list below is still there
    expect(rows(root.querySelector<HTMLElement>(".cg-list")!).map((r) => text(r.querySelector(".cg-title")))).toEqual(["Half marathon goal"]);
  });

  it("says so when no note is open, the file is not a note, or the backend does not know it", async () => {
    const active = new FakeActiveNote(null);
    const transport = serving();
    const { root, panel } = mount(backendOver(transport), new FakeNotes(), active);
    await panel.refresh();
    expect(text(section(root).querySelector(".cg-related-empty"))).toBe("Open a note to see the memories and notes related to it.");
    active.open("Projects/assets/diagram.png");
    expect(text(section(root).querySelector(".cg-related-empty"))).toBe("diagram.png is not a Markdown note; related memories are found for notes.");
    expect(text(section(root).querySelector(".cg-related-note"))).toBe("");
    active.open("Inbox/Brand new.md");
    await expect.poll(() => text(section(root).querySelector(".cg-related-empty"))).toBe(
      "The backend does not know Brand new yet. Is it serving this vault?",
    );
    expect(transport.paths().filter((p) => p === "GET /api/v1/related")).toHaveLength(1);
  });

  it("hides the section while the backend is down and fills it when it is back", async () => {
    let up = false;
    const live = serving();
    const flaky = new FakeTransport();
    flaky.send = (r) => (up ? live.send(r) : Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })));
    const active = new FakeActiveNote("_stm/Half marathon goal.md");
    const { root, panel } = mount(backendOver(flaky), new FakeNotes(), active);
    await panel.refresh();
    await expect.poll(() => section(root).getAttribute("data-state")).toBe("unreachable");
    expect(section(root).classList.contains("cg-hidden")).toBe(true);
    expect(root.querySelector(".cg-offline")).not.toBeNull();
    up = true;
    root.querySelector<HTMLButtonElement>(".cg-offline button")!.click();
    await expect.poll(() => relatedTitles(root)).toEqual(["Running"]);
    expect(section(root).classList.contains("cg-hidden")).toBe(false);
  });

  it("keeps to the list alone when the view has no active note to follow", async () => {
    const { root, panel } = mount(backendOver(serving()));
    await panel.refresh();
    expect(root.querySelector(".cg-related")).toBeNull();
  });
});
