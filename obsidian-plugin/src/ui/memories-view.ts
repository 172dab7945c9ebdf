// The Memories view in the right sidebar: an ItemView that hosts the panel and nothing more.

import { ItemView, type WorkspaceLeaf } from "obsidian";
import { MemoriesPanel, type PanelDeps } from "./memories-panel";

export const MEMORIES_VIEW = "cortexgraph-memories-view";

export class MemoriesView extends ItemView {
  private panel: MemoriesPanel | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly deps: PanelDeps,
  ) {
    super(leaf);
  }

  override getViewType(): string {
    return MEMORIES_VIEW;
  }

  override getDisplayText(): string {
    return "Memories";
  }

  override getIcon(): string {
    return "brain";
  }

  override async onOpen(): Promise<void> {
    const panel = new MemoriesPanel(this.contentEl, this.deps);
    this.panel = panel;
    this.addChild(panel);
    await panel.refresh();
  }

  override async onClose(): Promise<void> {
    if (this.panel) this.removeChild(this.panel);
    this.panel = null;
    this.contentEl.empty();
  }
}
