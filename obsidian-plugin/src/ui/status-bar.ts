// The status-bar item: backend up or down, and the live score of the active memory note.
// A click reinforces that memory (or checks the backend again, or opens the view).

import { Component } from "obsidian";
import type { MemoryActions } from "../actions/memory-actions";
import type { ActiveMemory } from "../backend/active-memory";
import type { Backend } from "../backend/backend";
import { statusText } from "../model/status-text";

export class MemoryStatusBar extends Component {
  constructor(
    private readonly el: HTMLElement,
    private readonly backend: Backend,
    private readonly active: ActiveMemory,
    private readonly actions: MemoryActions,
    private readonly openView: () => void,
  ) {
    super();
  }

  override onload(): void {
    this.el.addClass("cg-status-bar", "mod-clickable");
    this.registerEvent(this.backend.onState(() => this.render()));
    this.registerEvent(this.active.onChanged(() => this.render()));
    this.registerDomEvent(this.el, "click", () => void this.click());
    this.render();
  }

  render(): void {
    const memory = this.active.memory;
    const status = statusText(this.backend.state, memory, this.backend.config.thresholds);
    this.el.setText(status.text);
    this.el.setAttr("aria-label", status.tooltip);
    this.el.setAttr("data-tooltip-position", "top");
    this.el.toggleClass("cg-status-offline", this.backend.state.kind !== "online" && this.backend.state.kind !== "unknown");
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
