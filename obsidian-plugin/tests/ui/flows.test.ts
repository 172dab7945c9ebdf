// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { App } from "obsidian";
import { MemoryActions } from "../../src/actions/memory-actions";
import { ActiveMemory } from "../../src/backend/active-memory";
import { MemoryFlows } from "../../src/ui/flows";
import { json } from "../support/fake-transport";
import { backendOver, servingMemories } from "../support/backend";
import { aMemory } from "../support/memories";
import { FakeNotes } from "../support/open-notes";
import { notices, openModals } from "../stubs/obsidian";

function setup() {
  const promotes: unknown[] = [];
  const transport = servingMemories(() => []).on("POST /api/v1/memories/m1/promote", (r) => {
    promotes.push(JSON.parse(r.body!));
    return json(200, { success: true, dry_run: false, candidates_found: 1, promoted_count: 1, promoted_ids: ["m1"], candidates: [], moved: { "_stm/A.md": "memories/A.md" }, commit: "c", message: "ok" });
  });
  const backend = backendOver(transport);
  const actions = new MemoryActions(backend, new FakeNotes(), () => undefined);
  const flows = new MemoryFlows({} as App, backend, new ActiveMemory(backend), actions);
  return { flows, promotes };
}

const button = (text: string) => [...(openModals.at(-1)?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent === text);

afterEach(() => {
  openModals.splice(0).forEach((m) => m.close());
  notices.splice(0);
});

describe("MemoryFlows.promoteMemory", () => {
  it("promotes a memory the rules ask for without asking", async () => {
    const { flows, promotes } = setup();
    await flows.promoteMemory(aMemory({ id: "m1", path: "_stm/A.md", promotable: true }));
    expect(openModals).toHaveLength(0);
    expect(promotes).toEqual([{ dry_run: false, force: false }]);
  });

  it("asks before promoting one that is not due, and forces it only on yes", async () => {
    const { flows, promotes } = setup();
    const first = flows.promoteMemory(aMemory({ id: "m1", path: "_stm/A.md", title: "A", promotable: false, score: 0.3, use_count: 1 }));
    expect(openModals.at(-1)?.titleEl.textContent).toBe("Promote A?");
    expect(openModals.at(-1)?.contentEl.textContent).toContain("score 0.30, used 1 time");
    button("Cancel")!.click();
    await first;
    expect(promotes).toEqual([]);

    const second = flows.promoteMemory(aMemory({ id: "m1", path: "_stm/A.md", title: "A", promotable: false }));
    button("Promote anyway")!.click();
    await second;
    expect(promotes).toEqual([{ dry_run: false, force: true }]);
  });

  it("refuses to promote what is not in short-term memory", async () => {
    const { flows, promotes } = setup();
    await flows.promoteMemory(aMemory({ id: "m1", status: "promoted", path: "memories/A.md" }));
    expect(promotes).toEqual([]);
    expect(notices).toEqual(["memories/A.md is promoted; only short-term memories can be promoted"]);
  });
});
