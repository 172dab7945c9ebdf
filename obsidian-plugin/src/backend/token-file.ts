// Where the backend keeps its token on this computer (outside the vault), so the settings can
// copy it into Obsidian's keychain with one click instead of a copy and paste.

import { promises as fs } from "fs";
import { homedir } from "os";
import { join } from "path";

const APP = "cortexgraph-vault";

/** The backend's config folder, as the backend's platformdirs computes it. */
export function backendConfigDir(platform: string, env: Record<string, string | undefined>, home: string): string {
  if (env.CORTEXGRAPH_CONFIG_DIR) return env.CORTEXGRAPH_CONFIG_DIR;
  if (platform === "darwin") return join(home, "Library", "Application Support", APP);
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), APP, APP);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), APP);
}

export function tokenFilePath(): string {
  return join(backendConfigDir(process.platform, process.env, homedir()), "token");
}

/** The token, or null when the backend has not written one on this computer. */
export async function readTokenFile(path = tokenFilePath()): Promise<string | null> {
  try {
    const token = (await fs.readFile(path, "utf8")).trim();
    return token || null;
  } catch {
    return null;
  }
}
