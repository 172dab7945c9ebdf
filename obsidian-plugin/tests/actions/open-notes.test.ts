import { describe, expect, it } from "vitest";
import type { App } from "obsidian";
import { MarkdownView, TFile } from "../stubs/obsidian";
import { WorkspaceNotes } from "../../src/actions/open-notes";

function appWith(leaves: { view: unknown; state?: Record<string, unknown> }[]): App {
  return {
    workspace: {
      iterateAllLeaves: (cb: (leaf: unknown) => void) =>
        leaves.forEach((l) => cb({ view: l.view, getViewState: () => ({ type: "x", state: l.state ?? {} }) })),
    },
  } as unknown as App;
}

describe("WorkspaceNotes", () => {
  it("saves every open editor of the path and only those", async () => {
    const a1 = new MarkdownView(new TFile("_stm/A.md"));
    const a2 = new MarkdownView(new TFile("_stm/A.md"));
    const b = new MarkdownView(new TFile("_stm/B.md"));
    await new WorkspaceNotes(appWith([{ view: a1 }, { view: b }, { view: a2 }])).saveOpenViews("_stm/A.md");
    expect([a1.saved, a2.saved, b.saved]).toEqual([1, 1, 0]);
  });

  it("lists notes open in tabs, including tabs not loaded since startup", () => {
    const notes = new WorkspaceNotes(
      appWith([
        { view: new MarkdownView(new TFile("_stm/A.md")) },
        { view: new MarkdownView(new TFile("_stm/A.md")) },
        { view: {}, state: { file: "_stm/Deferred.md" } },
        { view: {}, state: { file: "picture.png" } },
        { view: new MarkdownView(null) },
      ]),
    );
    expect(notes.openPaths()).toEqual(["_stm/A.md", "_stm/Deferred.md"]);
  });
});
