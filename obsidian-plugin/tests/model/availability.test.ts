import { describe, expect, it } from "vitest";
import { actionAvailable, offersFileMenu, type NoteContext } from "../../src/model/availability";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { aMemory } from "../support/memories";

const folders = DEFAULT_CONFIG.folders;
const online = { kind: "online" } as const;

function ctx(over: Partial<NoteContext>): NoteContext {
  return { connection: online, path: "_stm/Coffee.md", memory: undefined, folders, ...over };
}

describe("actionAvailable", () => {
  it("offers nothing without a Markdown file", () => {
    expect(actionAvailable("reinforce", ctx({ path: null }))).toBe(false);
    expect(actionAvailable("reinforce", ctx({ path: "_stm/picture.png" }))).toBe(false);
  });

  it("offers nothing while the backend is offline or refuses the token", () => {
    expect(actionAvailable("reinforce", ctx({ connection: { kind: "offline", message: "x" } }))).toBe(false);
    expect(actionAvailable("promote", ctx({ connection: { kind: "unauthorized", message: "x" } }))).toBe(false);
  });

  it("judges by folder until the note has been looked up", () => {
    expect(actionAvailable("reinforce", ctx({ path: "_stm/Coffee.md" }))).toBe(true);
    expect(actionAvailable("reinforce", ctx({ path: "Projects/Atlas.md" }))).toBe(false);
    expect(actionAvailable("history", ctx({ path: "memories/Time zone.md" }))).toBe(true);
    expect(actionAvailable("promote", ctx({ path: "memories/Time zone.md" }))).toBe(false);
  });

  it("trusts the backend once it has said the note is not a memory", () => {
    expect(actionAvailable("reinforce", ctx({ memory: null }))).toBe(false);
    expect(actionAvailable("history", ctx({ memory: null }))).toBe(false);
  });

  it("reinforces and promotes only active memories", () => {
    for (const action of ["reinforce", "promote"] as const) {
      expect(actionAvailable(action, ctx({ memory: aMemory({ status: "active" }) }))).toBe(true);
      expect(actionAvailable(action, ctx({ memory: aMemory({ status: "promoted" }) }))).toBe(false);
      expect(actionAvailable(action, ctx({ memory: aMemory({ status: "archived" }) }))).toBe(false);
    }
  });

  it("shows history only for memories git can follow (they have an id)", () => {
    expect(actionAvailable("history", ctx({ memory: aMemory({ status: "promoted" }) }))).toBe(true);
    expect(actionAvailable("history", ctx({ memory: aMemory({ id: null }) }))).toBe(false);
  });

  it("works before the first call, while the connection is unknown", () => {
    expect(actionAvailable("reinforce", ctx({ connection: { kind: "unknown" } }))).toBe(true);
  });
});

describe("offersFileMenu", () => {
  it("is for notes in the short-term folder", () => {
    expect(offersFileMenu("_stm/Coffee.md", folders)).toBe(true);
    expect(offersFileMenu("_stm/sub/Deep.md", folders)).toBe(true);
    expect(offersFileMenu("_stm.md", folders)).toBe(false);
    expect(offersFileMenu("Notes/_stm/x.md", folders)).toBe(false);
    expect(offersFileMenu("_stm/x.canvas", { ...folders })).toBe(false);
  });
});
