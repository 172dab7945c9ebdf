import { describe, expect, it } from "vitest";
import type { App, Command } from "obsidian";
import { ActiveMemory } from "../../src/backend/active-memory";
import { memoryCommands } from "../../src/ui/commands";
import type { MemoryFlows } from "../../src/ui/flows";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver, refusedTransport, servingMemories } from "../support/backend";
import { aMemory } from "../support/memories";

function setup(activePath: string | null, transport: FakeTransport = servingMemories(() => [])) {
  const app = { workspace: { getActiveFile: () => (activePath ? { path: activePath } : null) } } as unknown as App;
  const backend = backendOver(transport);
  const active = new ActiveMemory(backend);
  const ran: string[] = [];
  const flows = {
    reinforce: async (p: string) => void ran.push(`reinforce ${p}`),
    promote: async (p: string) => void ran.push(`promote ${p}`),
    historyOf: async (p: string) => void ran.push(`history ${p}`),
    searchMemories: () => void ran.push("search"),
    previewGc: async () => void ran.push("preview gc"),
    runGc: async () => void ran.push("run gc"),
    restoreForgotten: async () => void ran.push("restore"),
  } as unknown as MemoryFlows;
  const commands = memoryCommands({ app, backend, active, flows, activateView: async () => void ran.push("view") });
  const byId = (id: string) => commands.find((c) => c.id === id) as Command;
  return { commands, byId, ran, backend, active };
}

describe("memory commands", () => {
  it("have stable ids, sentence-case names without the plugin name, and no default hotkeys", () => {
    const { commands } = setup(null);
    expect(commands.map((c) => c.id)).toEqual([
      "open-memories-view",
      "reinforce-current-memory",
      "promote-current-memory",
      "search-memories",
      "preview-garbage-collection",
      "run-garbage-collection",
      "show-memory-history",
      "restore-forgotten-memory",
    ]);
    for (const c of commands) {
      expect(c.name[0]).toBe(c.name[0]?.toUpperCase());
      expect(c.name.slice(1)).toBe(c.name.slice(1).toLowerCase());
      expect(c.name.toLowerCase()).not.toContain("cortexgraph");
      expect(c.hotkeys).toBeUndefined();
    }
  });

  it("offer current-memory commands on a short-term note before it is looked up, and run them", () => {
    const { byId, ran } = setup("_stm/Coffee.md");
    expect(byId("reinforce-current-memory").checkCallback?.(true)).toBe(true);
    expect(byId("promote-current-memory").checkCallback?.(true)).toBe(true);
    expect(byId("show-memory-history").checkCallback?.(true)).toBe(true);
    expect(ran).toEqual([]);
    byId("reinforce-current-memory").checkCallback?.(false);
    expect(ran).toEqual(["reinforce _stm/Coffee.md"]);
  });

  it("hide them on an ordinary note and without an active file", () => {
    expect(setup("Projects/Atlas.md").byId("reinforce-current-memory").checkCallback?.(true)).toBe(false);
    expect(setup(null).byId("show-memory-history").checkCallback?.(true)).toBe(false);
  });

  it("follow the looked-up memory: no promotion for a promoted one", async () => {
    const transport = servingMemories(() => []).on("GET /api/v1/memories/lookup", () => json(200, aMemory({ path: "memories/Time zone.md", status: "promoted" })));
    const { byId, active } = setup("memories/Time zone.md", transport);
    await active.track("memories/Time zone.md");
    expect(byId("promote-current-memory").checkCallback?.(true)).toBe(false);
    expect(byId("reinforce-current-memory").checkCallback?.(true)).toBe(false);
    expect(byId("show-memory-history").checkCallback?.(true)).toBe(true);
  });

  it("hide them once the backend is known to be down", async () => {
    const { byId, backend } = setup("_stm/Coffee.md", refusedTransport());
    await backend.probe();
    expect(byId("reinforce-current-memory").checkCallback?.(true)).toBe(false);
  });

  it("always offer the vault-wide commands", () => {
    const { byId, ran } = setup(null);
    for (const id of ["open-memories-view", "search-memories", "preview-garbage-collection", "run-garbage-collection", "restore-forgotten-memory"]) {
      byId(id).callback?.();
    }
    expect(ran).toEqual(["view", "search", "preview gc", "run gc", "restore"]);
  });
});
