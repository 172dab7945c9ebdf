// What the actions need from the workspace: save editors before the backend rewrites their file,
// list the files open in tabs (gc leaves them alone), open a note.

import { MarkdownView, TFile, type App } from "obsidian";

export interface OpenNotes {
  /** Save every open editor of `path`, so a backend write cannot merge away unsaved typing. */
  saveOpenViews(path: string): Promise<void>;
  /** Vault paths of every Markdown file open in a tab. */
  openPaths(): string[];
  open(path: string): Promise<void>;
}

export class WorkspaceNotes implements OpenNotes {
  constructor(private readonly app: App) {}

  async saveOpenViews(path: string): Promise<void> {
    const saves: Promise<void>[] = [];
    this.app.workspace.iterateAllLeaves((leaf) => {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file?.path === path) saves.push(view.save());
    });
    await Promise.all(saves);
  }

  openPaths(): string[] {
    const paths = new Set<string>();
    this.app.workspace.iterateAllLeaves((leaf) => {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file) {
        paths.add(view.file.path);
        return;
      }
      // Tabs not shown since startup are deferred: their file is only in the view state.
      const file = leaf.getViewState().state?.file;
      if (typeof file === "string" && file.endsWith(".md")) paths.add(file);
    });
    return [...paths].sort();
  }

  async open(path: string): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (file instanceof TFile) {
      await this.app.workspace.getLeaf(false).openFile(file);
    } else {
      // The backend may have written it a moment ago, before the vault saw it.
      await this.app.workspace.openLinkText(path, "", false);
    }
  }
}
