// The command palette entries. Ids are stable (hotkeys people assign hang on them); names are
// sentence case without the plugin's name; no default hotkeys.

import type { App, Command } from "obsidian";
import type { ActiveMemory } from "../backend/active-memory";
import type { Backend } from "../backend/backend";
import { actionAvailable, type MemoryAction } from "../model/availability";
import type { MemoryFlows } from "./flows";

export interface CommandContext {
  app: App;
  backend: Backend;
  active: ActiveMemory;
  flows: MemoryFlows;
  activateView: () => Promise<void>;
}

export function memoryCommands(ctx: CommandContext): Command[] {
  const onCurrent = (action: MemoryAction, run: (path: string) => Promise<void>) => (checking: boolean) => {
    const path = ctx.app.workspace.getActiveFile()?.path ?? null;
    const available = actionAvailable(action, {
      connection: ctx.backend.state,
      path,
      memory: ctx.active.memoryAt(path),
      folders: ctx.backend.config.folders,
    });
    if (!available || path === null) return false;
    if (!checking) void run(path);
    return true;
  };
  return [
    { id: "open-memories-view", name: "Open memories view", callback: () => void ctx.activateView() },
    {
      id: "reinforce-current-memory",
      name: "Reinforce current memory",
      checkCallback: onCurrent("reinforce", (p) => ctx.flows.reinforce(p)),
    },
    {
      id: "promote-current-memory",
      name: "Promote current memory",
      checkCallback: onCurrent("promote", (p) => ctx.flows.promote(p)),
    },
    { id: "search-memories", name: "Search memories", callback: () => ctx.flows.searchMemories() },
    { id: "preview-garbage-collection", name: "Preview garbage collection", callback: () => void ctx.flows.previewGc() },
    { id: "run-garbage-collection", name: "Run garbage collection", callback: () => void ctx.flows.runGc() },
    {
      id: "show-memory-history",
      name: "Show history of current memory",
      checkCallback: onCurrent("history", (p) => ctx.flows.historyOf(p)),
    },
    { id: "restore-forgotten-memory", name: "Restore a forgotten memory", callback: () => void ctx.flows.restoreForgotten() },
  ];
}
