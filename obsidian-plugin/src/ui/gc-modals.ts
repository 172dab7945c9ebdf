// Garbage collection, seen before it happens: a preview listing what would be forgotten and
// why, and a confirmation that runs it (notes open in tabs are always left alone).

import { Modal, Setting, type App } from "obsidian";
import type { GcResult } from "../api/types";
import type { Thresholds } from "../model/backend-config";
import { plural } from "../model/format";
import { forgetReason } from "../model/messages";

export function renderForgetList(parent: HTMLElement, result: GcResult, thresholds: Thresholds): void {
  if (result.candidates.length === 0) {
    parent.createEl("p", { cls: "cg-gc-none", text: "Nothing would be forgotten now: every memory scores above the forget line." });
  } else {
    const list = parent.createEl("ul", { cls: "cg-gc-list" });
    for (const c of result.candidates) {
      const item = list.createEl("li", { cls: "cg-gc-item" });
      item.setAttr("data-path", c.path);
      item.createSpan({ cls: "cg-gc-title", text: c.title });
      item.createSpan({ cls: "cg-gc-path", text: c.path });
      const reason = c.superseded_by.length
        ? `Replaced by ${c.superseded_by.map((t) => `"${t}"`).join(", ")}: archived, kept in history`
        : forgetReason(c.score, thresholds.forget, c.use_count, c.age_days);
      item.createDiv({ cls: "cg-gc-reason", text: reason });
    }
  }
  if (result.skipped.length) {
    parent.createEl("p", { cls: "cg-gc-skipped-heading", text: "Left alone:" });
    const skipped = parent.createEl("ul", { cls: "cg-gc-skipped" });
    for (const s of result.skipped) skipped.createEl("li", { text: `${s.path}: ${s.reason}` });
  }
}

export class GcPreviewModal extends Modal {
  constructor(
    app: App,
    private readonly result: GcResult,
    private readonly thresholds: Thresholds,
    private readonly confirm: () => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle("Garbage collection preview");
    const n = this.result.candidates.length;
    this.contentEl.createEl("p", {
      text: n
        ? `${plural(n, "memory", "memories")} would be forgotten. Nothing has changed yet.`
        : "Nothing has changed.",
    });
    renderForgetList(this.contentEl, this.result, this.thresholds);
    const buttons = new Setting(this.contentEl);
    if (n) {
      buttons.addButton((b) =>
        b.setButtonText("Run garbage collection…").onClick(() => {
          this.close();
          this.confirm();
        }),
      );
    }
    buttons.addButton((b) => b.setButtonText("Close").onClick(() => this.close()));
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

export class GcConfirmModal extends Modal {
  private archive = false;

  constructor(
    app: App,
    private readonly preview: GcResult,
    private readonly thresholds: Thresholds,
    private readonly run: (archiveInstead: boolean) => Promise<unknown>,
  ) {
    super(app);
  }

  override onOpen(): void {
    const n = this.preview.candidates.length;
    this.setTitle(n ? `Forget ${plural(n, "memory", "memories")}?` : "Nothing to forget");
    this.contentEl.createEl("p", {
      text: "The memories below are removed in one Git commit. Each can be brought back with the command to restore a forgotten memory. Notes open in tabs are left alone.",
    });
    renderForgetList(this.contentEl, this.preview, this.thresholds);
    new Setting(this.contentEl)
      .setName("Archive instead of deleting")
      .setDesc("Move them to the archive folder rather than deleting them.")
      .addToggle((t) => t.setValue(this.archive).onChange((v) => (this.archive = v)));
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton((b) =>
        b
          .setButtonText("Forget")
          .setWarning()
          .setDisabled(n === 0)
          .onClick(async () => {
            b.setDisabled(true);
            await this.run(this.archive);
            this.close();
          }),
      );
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
