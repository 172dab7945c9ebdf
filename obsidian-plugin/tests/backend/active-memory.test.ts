import { describe, expect, it } from "vitest";
import { ActiveMemory } from "../../src/backend/active-memory";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver, refusedTransport } from "../support/backend";
import { aMemory } from "../support/memories";

describe("ActiveMemory", () => {
  it("looks up notes in memory folders and knows ordinary notes without asking", async () => {
    const t = new FakeTransport()
      .on("GET /api/v1/config", () => json(200, { settings: [] }))
      .on("GET /api/v1/memories/lookup", (_r, url) => json(200, aMemory({ path: url.searchParams.get("path")! })));
    const active = new ActiveMemory(backendOver(t));
    await active.track("_stm/Coffee.md");
    expect(active.memory?.path).toBe("_stm/Coffee.md");
    await active.track("Home.md");
    expect(active.memory).toBeNull();
    expect(t.paths().filter((p) => p.includes("lookup"))).toHaveLength(1);
  });

  it("answers only for the tracked path", async () => {
    const t = new FakeTransport().on("GET /api/v1/memories/lookup", () => json(200, aMemory()));
    const active = new ActiveMemory(backendOver(t));
    await active.track("_stm/A.md");
    expect(active.memoryAt("_stm/A.md")).not.toBeUndefined();
    expect(active.memoryAt("_stm/B.md")).toBeUndefined();
  });

  it("keeps the newest lookup when an older one answers later", async () => {
    const answers: ((v: unknown) => void)[] = [];
    const t = new FakeTransport().on("GET /api/v1/memories/lookup", (_r, url) =>
      new Promise((resolve) => answers.push(() => resolve(json(200, aMemory({ path: url.searchParams.get("path")! }))))),
    );
    const active = new ActiveMemory(backendOver(t));
    const first = active.track("_stm/Old.md");
    const second = active.track("_stm/New.md");
    await Promise.resolve();
    answers[1]?.(undefined);
    await second;
    answers[0]?.(undefined);
    await first;
    expect(active.memory?.path).toBe("_stm/New.md");
  });

  it("tells at once which file became active, before its lookup answers, and only on a change", async () => {
    const active = new ActiveMemory(backendOver(refusedTransport()));
    const seen: (string | null)[] = [];
    active.onPathChanged((path) => seen.push(path));
    const lookup = active.track("_stm/A.md");
    expect(seen).toEqual(["_stm/A.md"]);
    await lookup;
    await active.track("_stm/A.md");
    await active.track(null);
    expect(seen).toEqual(["_stm/A.md", null]);
  });

  it("follows the active file when it is renamed, and ignores other renames", async () => {
    const active = new ActiveMemory(backendOver(refusedTransport()));
    const seen: (string | null)[] = [];
    await active.track("Drafts/Idea.md");
    active.onPathChanged((path) => seen.push(path));
    await active.renamed("Other.md", "Elsewhere.md");
    await active.renamed("Drafts/Idea.md", "Projects/Idea.md");
    expect(active.path).toBe("Projects/Idea.md");
    expect(seen).toEqual(["Projects/Idea.md"]);
  });

  it("does not know (rather than deny) while the backend is down", async () => {
    const active = new ActiveMemory(backendOver(refusedTransport()));
    await active.track("_stm/A.md");
    expect(active.memory).toBeUndefined();
  });
});
