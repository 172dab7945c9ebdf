// A memory's past from git: its commits, any old version rendered read-only, and restore when
// the memory is gone or archived (the backend refuses to restore over a live memory).

import { Component, MarkdownRenderer, Modal, Setting, type App } from "obsidian";
import type { MemoryActions, MemoryRef } from "../actions/memory-actions";
import type { CommitView, HistoryResult } from "../api/types";
import { formatWhen } from "../model/format";
import { splitFrontmatter } from "../model/note-text";

export class HistoryModal extends Modal {
  private renderScope: Component | null = null;

  constructor(
    app: App,
    private readonly actions: MemoryActions,
    private readonly memory: MemoryRef & { status?: string },
    private readonly history: HistoryResult,
  ) {
    super(app);
    this.modalEl.addClass("cg-history-modal");
  }

  override onOpen(): void {
    this.showCommits();
  }

  override onClose(): void {
    this.dropRendered();
    this.contentEl.empty();
  }

  private showCommits(): void {
    this.dropRendered();
    this.contentEl.empty();
    this.setTitle(`History of ${this.memory.title}`);
    const { commits, exists } = this.history;
    if (!exists) {
      this.contentEl.createEl("p", { text: "This memory has been forgotten. Pick a version to see it, then restore it." });
    }
    if (this.memory.status === "archived") {
      new Setting(this.contentEl)
        .setName("Archived")
        .setDesc("Bring it back into short-term memory, fresh again.")
        .addButton((b) =>
          b
            .setButtonText("Restore from archive")
            .setCta()
            .onClick(async () => {
              const done = await this.actions.restore(this.history.memory_id, this.memory.title);
              if (done) this.close();
            }),
        );
    }
    if (commits.length === 0) {
      this.contentEl.createEl("p", { cls: "cg-placeholder", text: "Git has no commit of this memory yet." });
      return;
    }
    const list = this.contentEl.createEl("ul", { cls: "cg-commit-list" });
    for (const commit of commits) this.commitItem(list, commit);
  }

  private commitItem(list: HTMLElement, commit: CommitView): void {
    const item = list.createEl("li", { cls: "cg-commit" });
    item.setAttr("data-sha", commit.sha);
    const link = item.createEl("a", { cls: "cg-commit-summary", text: commit.summary, href: "#" });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      void this.showVersion(commit);
    });
    item.createDiv({
      cls: "cg-commit-meta",
      text: `${commit.short} · ${formatWhen(commit.time)} · ${commit.author} · ${commit.change}`,
    });
  }

  private async showVersion(commit: CommitView): Promise<void> {
    if (commit.change === "deleted") {
      // The deleting commit has no text of the memory; its parent does, and restore uses it.
      this.contentEl.createEl("p", { cls: "cg-placeholder", text: "This commit removed the memory; pick an earlier one to see its text." });
      return;
    }
    const version = await this.actions.version(this.history.memory_id, commit.sha);
    if (!version) return;
    this.dropRendered();
    this.contentEl.empty();
    this.setTitle(`${this.memory.title} at ${commit.short}`);
    this.contentEl.createDiv({ cls: "cg-commit-meta", text: `${formatWhen(commit.time)} · ${commit.summary} · ${version.path}` });
    const parts = splitFrontmatter(version.text);
    if (parts.frontmatter !== null) this.contentEl.createEl("pre", { cls: "cg-version-properties", text: parts.frontmatter });
    const body = this.contentEl.createDiv({ cls: ["cg-version-body", "markdown-rendered"] });
    this.renderScope = new Component();
    this.renderScope.load();
    await MarkdownRenderer.render(this.app, parts.body, body, version.path, this.renderScope);

    const buttons = new Setting(this.contentEl);
    buttons.addButton((b) => b.setButtonText("Back to history").onClick(() => this.showCommits()));
    if (!this.history.exists) {
      buttons.addButton((b) =>
        b
          .setButtonText("Restore this version")
          .setCta()
          .onClick(async () => {
            const done = await this.actions.restore(this.history.memory_id, this.memory.title, commit.sha);
            if (done) this.close();
          }),
      );
    } else {
      buttons.setDesc("This memory still exists; an old version cannot replace it, but you can copy from it.");
    }
  }

  private dropRendered(): void {
    this.renderScope?.unload();
    this.renderScope = null;
  }
}
