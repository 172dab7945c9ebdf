import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { matchesText, resultRows, visibleMemories } from "../../src/model/memory-filter";
import { aHit, aMemory } from "../support/memories";

const t = DEFAULT_CONFIG.thresholds;

describe("visibleMemories", () => {
  const strong = aMemory({ title: "Strong", score: 0.9 });
  const weak = aMemory({ title: "Weak", score: 0.2 });
  const going = aMemory({ title: "Going", score: 0.02, days_until_forgotten: 0 });
  const ready = aMemory({ title: "Ready", score: 0.7, promotable: true });
  const kept = aMemory({ title: "Kept", status: "promoted", score: 1.1, days_until_forgotten: null });
  const all = [weak, going, strong, kept, ready];

  it("sorts by live score, strongest first", () => {
    expect(visibleMemories(all, { status: "all", show: "everything" }, t).map((m) => m.title)).toEqual([
      "Kept",
      "Strong",
      "Ready",
      "Weak",
      "Going",
    ]);
  });

  it("keeps only the chosen status", () => {
    expect(visibleMemories(all, { status: "active", show: "everything" }, t).map((m) => m.title)).not.toContain("Kept");
  });

  it("shows only the chosen chip group", () => {
    const show = (s: "fading" | "promotable" | "forgetting") => visibleMemories(all, { status: "all", show: s }, t).map((m) => m.title);
    expect(show("fading")).toEqual(["Weak"]);
    expect(show("promotable")).toEqual(["Ready"]);
    expect(show("forgetting")).toEqual(["Going"]);
  });

  it("does not reorder the caller's array", () => {
    const input = [weak, strong];
    visibleMemories(input, { status: "all", show: "everything" }, t);
    expect(input[0]).toBe(weak);
  });
});

describe("matchesText", () => {
  it("needs every word somewhere in the title, content, tags or entities", () => {
    const m = aMemory({ title: "Prefers TypeScript", content: "strict mode please", tags: ["programming"], entities: ["JavaScript"] });
    expect(matchesText(m, "typescript strict")).toBe(true);
    expect(matchesText(m, "javascript")).toBe(true);
    expect(matchesText(m, "programming rust")).toBe(false);
    expect(matchesText(m, "  ")).toBe(true);
  });
});

describe("resultRows", () => {
  it("shows listed memories as full rows and everything else as hits", () => {
    const listed = aMemory({ title: "Listed" });
    const rows = resultRows(
      [aHit({ id: listed.id, path: listed.path, source: "stm" }), aHit({ title: "Home", path: "Home.md" })],
      [listed],
    );
    expect(rows[0]).toEqual({ kind: "memory", memory: listed });
    expect(rows[1]?.kind).toBe("note");
  });
});
