// Items in a note's file menu (right-click in the file explorer or the tab), on short-term memories.

import { TFile, type Menu, type TAbstractFile } from "obsidian";
import type { Backend } from "../backend/backend";
import { offersFileMenu } from "../model/availability";
import { isUsable } from "../model/connection";
import type { MemoryFlows } from "./flows";

export function addMemoryMenuItems(menu: Menu, file: TAbstractFile, backend: Backend, flows: MemoryFlows): void {
  if (!(file instanceof TFile) || !offersFileMenu(file.path, backend.config.folders) || !isUsable(backend.state)) return;
  const path = file.path;
  menu.addItem((item) =>
    item
      .setTitle("Reinforce memory")
      .setIcon("zap")
      .setSection("cortexgraph")
      .onClick(() => void flows.reinforce(path)),
  );
  menu.addItem((item) =>
    item
      .setTitle("Promote memory")
      .setIcon("arrow-up-circle")
      .setSection("cortexgraph")
      .onClick(() => void flows.promote(path)),
  );
  menu.addItem((item) =>
    item
      .setTitle("Show memory history")
      .setIcon("history")
      .setSection("cortexgraph")
      .onClick(() => void flows.historyOf(path)),
  );
}
