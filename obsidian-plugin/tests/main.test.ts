// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { Events, TFile, notices, type Plugin as StubPlugin } from "./stubs/obsidian";
import CortexMemoriesPlugin from "../src/main";

class Workspace extends Events {
  layoutReady: (() => void)[] = [];
  onLayoutReady(cb: () => void) {
    this.layoutReady.push(cb);
  }
  getActiveFile() {
    return null;
  }
  getLeavesOfType() {
    return [];
  }
  iterateAllLeaves() {}
}

function makeApp() {
  const secrets = new Map<string, string>([["cortexgraph-token", "tok"]]);
  return {
    workspace: new Workspace(),
    vault: Object.assign(new Events(), { adapter: {} }),
    metadataCache: new Events(),
    secretStorage: { getSecret: (id: string) => secrets.get(id) ?? null, setSecret: (id: string, v: string) => secrets.set(id, v) },
  };
}

type Listeners = { listenerCount(name: string): number };
const count = (e: unknown, name: string) => (e as Listeners).listenerCount(name);

afterEach(() => {
  notices.splice(0);
});

describe("plugin lifecycle", () => {
  it("registers its view, commands, status bar and events, and unload removes every one", async () => {
    const app = makeApp();
    const plugin = new CortexMemoriesPlugin(app as never, { id: "cortexgraph-memories" } as never);
    const stub = plugin as unknown as StubPlugin;
    stub.load();
    await expect.poll(() => stub.registered.commands.length).toBe(9);

    expect([...stub.registered.views.keys()]).toEqual(["cortexgraph-memories-view"]);
    expect(stub.registered.commands).toHaveLength(9);
    expect(stub.registered.commands.every((c) => c.hotkeys === undefined)).toBe(true);
    expect(stub.registered.statusBarItems).toHaveLength(1);
    expect(count(app.workspace, "file-menu")).toBe(1);
    // Vault events wait for the layout, so startup does not count as a flood of changes.
    expect(count(app.metadataCache, "changed")).toBe(0);
    expect(count(app.vault, "rename")).toBe(0);

    for (const cb of app.workspace.layoutReady) cb();
    expect(count(app.metadataCache, "changed")).toBe(1);
    expect(count(app.vault, "rename")).toBe(1);
    expect(count(app.vault, "delete")).toBe(1);
    expect(count(app.workspace, "file-open")).toBe(1);
    expect(stub.registered.intervals.size).toBe(1);
    await expect.poll(() => stub.registered.statusBarItems[0]?.textContent).toBe("Memories: offline");
    expect(notices).toEqual([]);

    // A settings change restarts the refresh timer rather than adding one.
    await plugin.saveSettings();
    stub.unload();
    expect(stub.registered.views.size).toBe(0);
    expect(stub.registered.intervals.size).toBe(0);
    for (const [source, name] of [
      [app.metadataCache, "changed"],
      [app.vault, "rename"],
      [app.vault, "delete"],
      [app.workspace, "file-open"],
      [app.workspace, "file-menu"],
    ] as const) {
      expect(count(source, name)).toBe(0);
    }
  });

  it("never writes the token to its data file", async () => {
    const app = makeApp();
    const plugin = new CortexMemoriesPlugin(app as never, { id: "cortexgraph-memories" } as never);
    await plugin.onload();
    await plugin.saveSettings();
    const saved = JSON.stringify(await plugin.loadData());
    expect(saved).toContain("cortexgraph-token");
    expect(saved).not.toContain('"tok"');
    (plugin as unknown as StubPlugin).unload();
  });

  it("refreshes only for changes under memory folders", async () => {
    const app = makeApp();
    const plugin = new CortexMemoriesPlugin(app as never, { id: "cortexgraph-memories" } as never);
    await plugin.onload();
    for (const cb of app.workspace.layoutReady) cb();
    const backend = (plugin as unknown as { backend: Events }).backend;
    let changed = 0;
    backend.on("changed", () => (changed += 1));
    app.metadataCache.trigger("changed", new TFile("Projects/Atlas.md"));
    app.vault.trigger("rename", new TFile("_stm/New.md"), "_stm/Old.md");
    await expect.poll(() => changed, { timeout: 3000 }).toBe(1);
    (plugin as unknown as StubPlugin).unload();
  });

  it("follows the active note when it is opened, renamed or closed", async () => {
    const app = makeApp();
    const plugin = new CortexMemoriesPlugin(app as never, { id: "cortexgraph-memories" } as never);
    await plugin.onload();
    for (const cb of app.workspace.layoutReady) cb();
    const active = (plugin as unknown as { active: { path: string | null } }).active;
    app.workspace.trigger("file-open", new TFile("Drafts/Idea.md"));
    expect(active.path).toBe("Drafts/Idea.md");
    app.vault.trigger("rename", new TFile("Projects/Idea.md"), "Drafts/Idea.md");
    expect(active.path).toBe("Projects/Idea.md");
    app.workspace.trigger("file-open", null);
    expect(active.path).toBeNull();
    (plugin as unknown as StubPlugin).unload();
  });
});
