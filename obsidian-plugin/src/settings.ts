// The plugin's settings as stored in data.json. The token itself is never here: only the name
// of the secret in Obsidian's keychain (app.secretStorage), which stays on this device.

export const DEFAULT_PORT = 47613;

export interface CortexSettings {
  backendUrl: string;
  /** Name of the secret in Obsidian's keychain that holds the backend's token. */
  tokenSecret: string;
  refreshSeconds: number;
  timeoutSeconds: number;
  startBackend: boolean;
  /** The cortexgraph-vault executable, when it is not on the PATH Obsidian sees. */
  backendCommand: string;
}

export const DEFAULT_SETTINGS: CortexSettings = {
  backendUrl: `http://127.0.0.1:${DEFAULT_PORT}`,
  tokenSecret: "cortexgraph-token",
  refreshSeconds: 60,
  timeoutSeconds: 10,
  startBackend: false,
  backendCommand: "cortexgraph-vault",
};

export const LIMITS = {
  refreshSeconds: { min: 10, max: 3600 },
  timeoutSeconds: { min: 1, max: 120 },
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The backend URL, trimmed; or why it is refused. Only this computer is ever contacted. */
export function checkBackendUrl(input: string): { url: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { error: `"${input}" is not a URL; use for example http://127.0.0.1:${DEFAULT_PORT}` };
  }
  if (parsed.protocol !== "http:") return { error: "Use http:// (the backend listens on this computer only)" };
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
    return { error: `${parsed.hostname} is not this computer; the backend only listens on 127.0.0.1` };
  }
  if (parsed.pathname !== "/" || parsed.search || parsed.hash) {
    return { error: "Give only the scheme, host and port, for example http://127.0.0.1:47613" };
  }
  return { url: `${parsed.protocol}//${parsed.host}` };
}

export function portOf(backendUrl: string): number {
  const parsed = new URL(backendUrl);
  return parsed.port ? Number(parsed.port) : 80;
}

function clamp(value: unknown, limits: { min: number; max: number }, fallback: number): number {
  const n = Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(limits.max, Math.max(limits.min, Math.round(n)));
}

/** Settings from data.json, with anything missing or out of range replaced by its default. */
export function settingsFrom(stored: unknown): CortexSettings {
  const raw = (stored && typeof stored === "object" ? stored : {}) as Partial<Record<keyof CortexSettings, unknown>>;
  const url = typeof raw.backendUrl === "string" ? checkBackendUrl(raw.backendUrl) : null;
  return {
    backendUrl: url && "url" in url ? url.url : DEFAULT_SETTINGS.backendUrl,
    tokenSecret: typeof raw.tokenSecret === "string" ? raw.tokenSecret : DEFAULT_SETTINGS.tokenSecret,
    refreshSeconds: clamp(raw.refreshSeconds, LIMITS.refreshSeconds, DEFAULT_SETTINGS.refreshSeconds),
    timeoutSeconds: clamp(raw.timeoutSeconds, LIMITS.timeoutSeconds, DEFAULT_SETTINGS.timeoutSeconds),
    startBackend: raw.startBackend === true,
    backendCommand:
      typeof raw.backendCommand === "string" && raw.backendCommand.trim()
        ? raw.backendCommand.trim()
        : DEFAULT_SETTINGS.backendCommand,
  };
}
