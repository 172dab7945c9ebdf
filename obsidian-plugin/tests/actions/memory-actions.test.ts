import { describe, expect, it } from "vitest";
import { MemoryActions, refOf } from "../../src/actions/memory-actions";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver, refusedTransport } from "../support/backend";
import { aGcResult } from "../support/memories";
import { FakeNotes } from "../support/open-notes";

const oat = { id: "oat-id", path: "_stm/Oat.md", title: "Oat" };

function setup(transport: FakeTransport, tabs: string[] = []) {
  const log: string[] = [];
  const notes = new FakeNotes(tabs, log);
  const notified: string[] = [];
  const backend = backendOver(transport);
  let changed = 0;
  backend.onChanged(() => (changed += 1));
  const actions = new MemoryActions(backend, notes, (m) => notified.push(m));
  return { actions, notes, notified, log, changed: () => changed };
}

describe("MemoryActions", () => {
  it("refers to a memory by id, or by title when it has none yet", () => {
    expect(refOf(oat)).toBe("oat-id");
    expect(refOf({ ...oat, id: null })).toBe("Oat");
  });

  it("saves the open note before promoting it and reports where it went", async () => {
    const t = new FakeTransport().on("POST /api/v1/memories/oat-id/promote", (r) => {
      expect(JSON.parse(r.body!)).toEqual({ dry_run: false, force: false });
      return json(200, { success: true, dry_run: false, candidates_found: 1, promoted_count: 1, promoted_ids: ["oat-id"], candidates: [], moved: { "_stm/Oat.md": "memories/Oat.md" }, commit: "c", message: "m" });
    });
    const { actions, notes, notified, changed } = setup(t, ["_stm/Oat.md"]);
    const result = await actions.promote(oat);
    expect(result?.promoted_count).toBe(1);
    expect(notes.saved).toEqual(["_stm/Oat.md"]);
    expect(notes.opened).toEqual(["memories/Oat.md"]);
    expect(notified).toEqual(['Promoted "Oat" to memories/Oat.md']);
    expect(changed()).toBe(1);
  });

  it("records that a memory replaces another, saving both open notes first", async () => {
    const paris = { id: "paris-id", path: "_stm/Paris.md", title: "I live in Paris" };
    const berlin = { id: "berlin-id", path: "_stm/Berlin.md", title: "I moved to Berlin" };
    const t = new FakeTransport().on("PATCH /api/v1/memories/berlin-id", (r) => {
      expect(JSON.parse(r.body!)).toEqual({ supersedes: ["paris-id"] });
      return json(200, {
        success: true, memory_id: "berlin-id", path: "memories/I moved to Berlin.md", content_hash: "h",
        changed: ["supersedes"], commit: "c", superseded: ["paris-id"],
      });
    });
    const { actions, notes, notified, changed } = setup(t, ["_stm/Berlin.md", "_stm/Paris.md"]);
    const result = await actions.supersede(berlin, paris);
    expect(result?.superseded).toEqual(["paris-id"]);
    expect(notes.saved).toEqual(["_stm/Berlin.md", "_stm/Paris.md"]);
    expect(notified).toEqual(['"I moved to Berlin" replaces "I live in Paris" (promoted to memories/I moved to Berlin.md, where "I live in Paris" was)']);
    expect(changed()).toBe(1);
  });

  it("passes every note open in a tab to gc as a path to skip, for the preview and the run", async () => {
    const bodies: unknown[] = [];
    const t = new FakeTransport().on("POST /api/v1/gc", (r) => {
      bodies.push(JSON.parse(r.body!));
      return json(200, aGcResult({ dry_run: false, removed_count: 1, total_affected: 1, commit: "abcdef123" }));
    });
    const { actions, notified } = setup(t, ["_stm/Open.md", "Home.md"]);
    await actions.previewGc();
    await actions.runGc(false);
    expect(bodies).toEqual([
      { dry_run: true, archive_instead: false, skip_paths: ["_stm/Open.md", "Home.md"] },
      { dry_run: false, archive_instead: false, skip_paths: ["_stm/Open.md", "Home.md"] },
    ]);
    expect(notified).toEqual(["Forgot 1 memory (commit abcdef1)"]);
  });

  it("restores a forgotten memory and opens it", async () => {
    const t = new FakeTransport().on("POST /api/v1/memories/gone-id/restore", (r) => {
      expect(JSON.parse(r.body!)).toEqual({ commit: "abc" });
      return json(200, { success: true, memory_id: "gone-id", path: "_stm/Gone.md", restored_from: "abc", commit: "def", message: "restored" });
    });
    const { actions, notes, notified } = setup(t);
    await actions.restore("gone-id", "Gone", "abc");
    expect(notes.opened).toEqual(["_stm/Gone.md"]);
    expect(notified).toEqual(['Restored "Gone" to _stm/Gone.md']);
  });

  it("tells why an action failed and returns null, changing nothing", async () => {
    const t = new FakeTransport().on("POST /api/v1/memories/oat-id/touch", () => json(409, { error: "conflict", detail: "_stm/Oat.md: changed since it was read" }));
    const { actions, notified, changed } = setup(t);
    expect(await actions.reinforce(oat)).toBeNull();
    expect(notified).toEqual(["Failed: _stm/Oat.md: changed since it was read"]);
    expect(changed()).toBe(0);
  });

  it("says the backend is not running when a person asks for something while it is down", async () => {
    const { actions, notified } = setup(refusedTransport());
    expect(await actions.reinforce(oat)).toBeNull();
    expect(notified[0]).toMatch(/^The backend is not running at http:\/\/127\.0\.0\.1:47613/);
  });
});
