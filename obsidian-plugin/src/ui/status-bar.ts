// The status-bar item: backend up or down, the live score of the active memory note, and what
// the last sync did. A click reinforces that memory (or checks the backend again, or opens the view).

import { Component } from "obsidian";
import type { MemoryActions } from "../actions/memory-actions";
import type { ActiveMemory } from "../backend/active-memory";
import type { Backend } from "../backend/backend";
import type { SyncState } from "../backend/sync-state";
import { statusText } from "../model/status-text";
import { syncStatus } from "../model/sync-status";

export class MemoryStatusBar extends Component {
  constructor(
    private readonly el: HTMLElement,
    private readonly backend: Backend,
    private readonly active: ActiveMemory,
    private readonly actions: MemoryActions,
    private readonly openView: () => void,
    private readonly sync?: SyncState,
  ) {
    super();
  }

  override onload(): void {
    this.el.addClass("cg-status-bar", "mod-clickable");
    this.registerEvent(this.backend.onState(() => this.render()));
    this.registerEvent(this.active.onChanged(() => this.render()));
    if (this.sync) this.registerEvent(this.sync.onChanged(() => this.render()));
    this.registerDomEvent(this.el, "click", () => void this.click());
    this.render();
  }

  render(): void {
    const memory = this.active.memory;
    const status = statusText(this.backend.state, memory, this.backend.config.thresholds);
    const synced = this.sync?.last ? syncStatus(this.sync.last) : null;
    this.el.setText(synced ? `${status.text} · ${synced.text}` : status.text);
    const when = this.sync?.last?.at ? ` (${this.sync.last.at})` : "";
    this.el.setAttr("aria-label", synced ? `${status.tooltip}\nLast sync${when}: ${synced.tooltip}` : status.tooltip);
    this.el.setAttr("data-tooltip-position", "top");
    this.el.toggleClass("cg-status-offline", this.backend.state.kind !== "online" && this.backend.state.kind !== "unknown");
    this.el.toggleClass("cg-sync-failed", this.sync?.last?.kind === "failed");
  }

  private async click(): Promise<void> {
    const memory = this.active.memory;
    const status = statusText(this.backend.state, memory, this.backend.config.thresholds);
    if (status.click === "reinforce" && memory) {
      await this.actions.reinforce(memory);
      await this.active.lookup();
    } else if (status.click === "retry") {
      await this.backend.probe();
      this.backend.notifyChanged();
    } else {
      this.openView();
    }
  }
}
