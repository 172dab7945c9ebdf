// When a command or menu item about the current note is offered. Obsidian asks synchronously,
// so the rule works from what is known: the note's path and, if already looked up, its memory.

import type { MemoryView } from "../api/types";
import { inFolder, type MemoryFolders } from "./backend-config";
import { isUsable, type ConnectionState } from "./connection";

export type MemoryAction = "reinforce" | "promote" | "history";

export interface NoteContext {
  connection: ConnectionState;
  /** Vault path of the active (or menu) file; null when there is none. */
  path: string | null;
  /** The memory at `path`: undefined when not looked up yet, null when the backend said it is not one. */
  memory: MemoryView | null | undefined;
  folders: MemoryFolders;
}

export function actionAvailable(action: MemoryAction, ctx: NoteContext): boolean {
  if (!ctx.path || !ctx.path.endsWith(".md") || !isUsable(ctx.connection)) return false;
  if (ctx.memory === null) return false;
  if (ctx.memory === undefined) {
    // Not looked up yet: judge by folder, and let the action itself look the memory up.
    if (action === "history") return memoryFolders(ctx.folders).some((f) => inFolder(ctx.path ?? "", f));
    return inFolder(ctx.path, ctx.folders.stm);
  }
  switch (action) {
    case "reinforce":
    case "promote":
      return ctx.memory.status === "active";
    case "history":
      return ctx.memory.id !== null;
  }
}

/** File-menu items appear on short-term memory notes. */
export function offersFileMenu(path: string, folders: MemoryFolders): boolean {
  return inFolder(path, folders.stm);
}

function memoryFolders(folders: MemoryFolders): string[] {
  return [folders.stm, folders.ltm, folders.archive];
}
