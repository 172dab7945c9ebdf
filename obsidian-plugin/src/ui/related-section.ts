// "Related to this note" at the top of the Memories view: a collapsible section (it stays as the
// person left it across redraws) with one compact row per related memory or note.

import { noteName, relatedMessage, type RelatedState } from "../model/related";
import { renderHitRow, type RowHandlers } from "./memory-row";

export class RelatedSection {
  private readonly noteEl: HTMLElement;
  private readonly bodyEl: HTMLElement;
  readonly el: HTMLDetailsElement;

  constructor(parent: HTMLElement) {
    this.el = parent.createEl("details", { cls: "cg-related", attr: { open: true } });
    const summary = this.el.createEl("summary", { cls: "cg-related-head" });
    summary.createSpan({ cls: "cg-related-title", text: "Related to this note" });
    this.noteEl = summary.createSpan({ cls: "cg-related-note" });
    this.bodyEl = this.el.createDiv({ cls: "cg-related-list" });
  }

  render(state: RelatedState, handlers: Pick<RowHandlers, "open">): void {
    this.noteEl.setText("path" in state && state.kind !== "not-markdown" ? noteName(state.path) : "");
    this.el.setAttr("data-state", state.kind);
    this.bodyEl.empty();
    const message = relatedMessage(state);
    if (message !== null || state.kind !== "loaded") {
      const cls = state.kind === "failed" ? ["cg-related-empty", "cg-failure"] : ["cg-related-empty"];
      this.bodyEl.createDiv({ cls, text: message ?? "" });
      return;
    }
    for (const hit of state.hits) renderHitRow(this.bodyEl, hit, handlers);
  }

  /** While the backend is away the view says so below, and nothing here would be current. */
  hide(hidden: boolean): void {
    this.el.toggleClass("cg-hidden", hidden);
  }
}
