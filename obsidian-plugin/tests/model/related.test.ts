import { describe, expect, it } from "vitest";
import { isMarkdown, noteName, relatedMessage, relatedStart } from "../../src/model/related";
import { aHit } from "../support/memories";

describe("related states", () => {
  it("asks only about Markdown notes", () => {
    expect(relatedStart(null)).toEqual({ kind: "no-note" });
    expect(relatedStart("")).toEqual({ kind: "no-note" });
    expect(relatedStart("Projects/assets/diagram.png")).toEqual({ kind: "not-markdown", path: "Projects/assets/diagram.png" });
    expect(relatedStart("Boards/Plan.canvas").kind).toBe("not-markdown");
    expect(relatedStart("Projects/Atlas.MD")).toEqual({ kind: "loading", path: "Projects/Atlas.MD" });
    expect(isMarkdown("notes.md.pdf")).toBe(false);
  });

  it("names a note as Obsidian does", () => {
    expect(noteName("Projects/Project Atlas.md")).toBe("Project Atlas");
    expect(noteName("Home.md")).toBe("Home");
    expect(noteName("Projects/assets/diagram.png")).toBe("diagram.png");
  });

  it("says what there is to say instead of rows", () => {
    expect(relatedMessage({ kind: "no-note" })).toBe("Open a note to see the memories and notes related to it.");
    expect(relatedMessage({ kind: "not-markdown", path: "a/diagram.png" })).toBe(
      "diagram.png is not a Markdown note; related memories are found for notes.",
    );
    expect(relatedMessage({ kind: "loading", path: "Running.md" })).toBe("Finding what is related to Running…");
    expect(relatedMessage({ kind: "loaded", path: "Running.md", hits: [] })).toBe("Nothing else in the vault is about Running yet.");
    expect(relatedMessage({ kind: "loaded", path: "Running.md", hits: [aHit()] })).toBeNull();
    expect(relatedMessage({ kind: "unknown", path: "New.md" })).toBe("The backend does not know New yet. Is it serving this vault?");
    expect(relatedMessage({ kind: "failed", path: "New.md", message: "the vault lock is busy" })).toBe("the vault lock is busy");
  });
});
