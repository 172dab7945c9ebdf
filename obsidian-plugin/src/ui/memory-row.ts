// One row of the Memories view: title and chip, the decay bar, the figures, the actions.
// Plain DOM through Obsidian's helpers; styling lives in styles.css.

import type { MemoryView, SearchHit } from "../api/types";
import type { Thresholds } from "../model/backend-config";
import { barFraction, chipFor } from "../model/chip";
import { formatAgo, formatScore, formatUntilForgotten, plural } from "../model/format";

export interface RowHandlers {
  open(path: string): void;
  reinforce(memory: MemoryView, button: HTMLButtonElement): void;
  promote(memory: MemoryView, button: HTMLButtonElement): void;
  history(memory: MemoryView): void;
  /** Pick the memory this one replaces (no longer true). */
  supersede?: (memory: MemoryView) => void;
}

export interface RowContext {
  thresholds: Thresholds;
  now: Date;
  handlers: RowHandlers;
}

export function renderMemoryRow(parent: HTMLElement, memory: MemoryView, ctx: RowContext): HTMLElement {
  const chip = chipFor(memory, ctx.thresholds);
  const row = parent.createDiv({ cls: ["cg-row", `cg-row-${chip.kind}`] });
  row.setAttr("data-path", memory.path);
  row.setAttr("data-chip", chip.kind);

  const head = row.createDiv({ cls: "cg-row-head" });
  const title = head.createEl("a", { cls: "cg-title", text: memory.title, href: "#" });
  title.setAttr("title", memory.path);
  title.addEventListener("click", (event) => {
    event.preventDefault();
    ctx.handlers.open(memory.path);
  });
  const chipEl = head.createSpan({ cls: ["cg-chip", `cg-chip-${chip.kind}`], text: chip.label });
  chipEl.setAttr("title", chip.reason);

  const fraction = barFraction(memory);
  const bar = row.createDiv({ cls: "cg-bar" });
  bar.setAttr("role", "meter");
  bar.setAttr("aria-label", `Score ${formatScore(memory.score)}`);
  bar.setAttr("aria-valuemin", "0");
  bar.setAttr("aria-valuemax", "1");
  bar.setAttr("aria-valuenow", fraction.toFixed(3));
  bar.setCssProps({ "--cg-score": `${(fraction * 100).toFixed(1)}%` });
  bar.createDiv({ cls: "cg-bar-fill" });

  const meta = row.createDiv({ cls: "cg-meta" });
  meta.createSpan({ cls: "cg-score", text: `Score ${formatScore(memory.score)}` });
  meta.createSpan({ cls: "cg-uses", text: plural(memory.use_count, "use") });
  meta.createSpan({ cls: "cg-last-used", text: `Used ${formatAgo(memory.last_used, ctx.now)}` });
  if (memory.status === "active") {
    meta.createSpan({
      cls: "cg-until",
      text: `Forgotten ${formatUntilForgotten(memory.days_until_forgotten, memory.status)}`,
    });
  }
  if (memory.tags.length) meta.createSpan({ cls: "cg-tags", text: memory.tags.map((t) => `#${t}`).join(" ") });

  const actions = row.createDiv({ cls: "cg-actions" });
  button(actions, "Open", "open", () => ctx.handlers.open(memory.path));
  if (memory.status === "active") {
    const reinforce = button(actions, "Reinforce", "reinforce", () => ctx.handlers.reinforce(memory, reinforce));
    reinforce.setAttr("title", "Count a use now: the score goes up and decay starts over");
    const promote = button(actions, "Promote", "promote", () => ctx.handlers.promote(memory, promote));
    promote.setAttr("title", memory.promotable ? "Ready: move it into the vault for good" : "Not due yet: asks before promoting it anyway");
    if (memory.promotable) promote.addClass("mod-cta");
  }
  const supersede = ctx.handlers.supersede;
  if (supersede && memory.id && memory.status !== "archived") {
    const replaces = button(actions, "Replaces…", "supersede", () => supersede(memory));
    replaces.setAttr("title", "Pick the memory this one corrects: search answers with this one from now on");
  }
  if (memory.id) button(actions, "History", "history", () => ctx.handlers.history(memory));
  return row;
}

/** A unified-search hit that is an ordinary note or a memory not in the current list. */
export function renderHitRow(parent: HTMLElement, hit: SearchHit, handlers: Pick<RowHandlers, "open">): HTMLElement {
  const row = parent.createDiv({ cls: ["cg-row", "cg-row-note"] });
  row.setAttr("data-path", hit.path);
  const head = row.createDiv({ cls: "cg-row-head" });
  const title = head.createEl("a", { cls: "cg-title", text: hit.title, href: "#" });
  title.setAttr("title", hit.path);
  title.addEventListener("click", (event) => {
    event.preventDefault();
    handlers.open(hit.path);
  });
  head.createSpan({ cls: ["cg-chip", "cg-chip-note"], text: sourceLabel(hit.source) });
  if (hit.content) row.createDiv({ cls: "cg-preview", text: hit.content });
  const meta = row.createDiv({ cls: "cg-meta" });
  meta.createSpan({ cls: "cg-score", text: `Match ${formatScore(hit.score)}` });
  meta.createSpan({ text: hit.path });
  const actions = row.createDiv({ cls: "cg-actions" });
  button(actions, "Open", "open", () => handlers.open(hit.path));
  return row;
}

function sourceLabel(source: string): string {
  if (source === "stm") return "Short-term";
  if (source === "ltm") return "Promoted";
  return "Note";
}

function button(parent: HTMLElement, text: string, action: string, onClick: () => void): HTMLButtonElement {
  const el = parent.createEl("button", { cls: ["cg-action", `cg-action-${action}`], text });
  el.setAttr("data-action", action);
  el.addEventListener("click", (event) => {
    event.preventDefault();
    onClick();
  });
  return el;
}
