// What the plugin needs to know of the backend's configuration: the score thresholds the chips
// are drawn against and the memory folders. Defaults are the backend's defaults; its effective
// values (GET /api/v1/config) replace them once it answers.

import type { SettingRow } from "../api/types";

export interface Thresholds {
  forget: number;
  dangerMin: number;
  dangerMax: number;
  promote: number;
}

export interface MemoryFolders {
  stm: string;
  ltm: string;
  archive: string;
}

export interface BackendConfig {
  thresholds: Thresholds;
  folders: MemoryFolders;
}

export const DEFAULT_CONFIG: BackendConfig = {
  thresholds: { forget: 0.05, dangerMin: 0.15, dangerMax: 0.35, promote: 0.65 },
  folders: { stm: "_stm", ltm: "memories", archive: "_archive" },
};

const THRESHOLD_SETTINGS: Record<keyof Thresholds, string> = {
  forget: "forget_threshold",
  dangerMin: "review_danger_zone_min",
  dangerMax: "review_danger_zone_max",
  promote: "promote_threshold",
};

const FOLDER_SETTINGS: Record<keyof MemoryFolders, string> = {
  stm: "stm_folder",
  ltm: "ltm_folder",
  archive: "archive_folder",
};

export function configFromSettings(settings: SettingRow[]): BackendConfig {
  const byName = new Map(settings.map((s) => [s.name, s.value]));
  const thresholds = { ...DEFAULT_CONFIG.thresholds };
  for (const key of Object.keys(THRESHOLD_SETTINGS) as (keyof Thresholds)[]) {
    const value = Number(byName.get(THRESHOLD_SETTINGS[key]));
    if (byName.has(THRESHOLD_SETTINGS[key]) && Number.isFinite(value)) thresholds[key] = value;
  }
  const folders = { ...DEFAULT_CONFIG.folders };
  for (const key of Object.keys(FOLDER_SETTINGS) as (keyof MemoryFolders)[]) {
    const value = byName.get(FOLDER_SETTINGS[key]);
    if (typeof value === "string" && value.trim()) folders[key] = value.trim().replace(/^\/+|\/+$/g, "");
  }
  return { thresholds, folders };
}

/** Whether a vault path lies in one of the memory folders (short-term, promoted or archived). */
export function inFolder(path: string, folder: string): boolean {
  return path.startsWith(`${folder}/`) && path.endsWith(".md");
}

/** Whether a change to these vault paths can change what the memories view shows. */
export function touchesMemories(paths: (string | null | undefined)[], folders: MemoryFolders): boolean {
  return paths.some((p) => !!p && [folders.stm, folders.ltm, folders.archive].some((f) => inFolder(p, f)));
}
