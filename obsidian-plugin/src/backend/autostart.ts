// "Start the backend when Obsidian starts": if nothing answers at the backend address, run
// `cortexgraph-vault serve` for this vault and wait until it answers.

import type { Timers } from "../api/client";
import type { Backend } from "./backend";
import type { BackendProcess } from "./server-process";

export interface AutostartOptions {
  backend: Backend;
  process: BackendProcess;
  command: string;
  /** The vault's folder on disk; null when the vault is not a plain folder. */
  vaultPath: string | null;
  port: number;
  notify: (message: string) => void;
  timers: Timers;
  /** How long to wait for the started backend to answer. */
  waitMs?: number;
}

const POLL_MS = 500;

/** Returns whether a backend answers at the end. */
export async function autostart(options: AutostartOptions): Promise<boolean> {
  const { backend, process } = options;
  if ((await backend.probe()).kind !== "offline") return true;
  if (!options.vaultPath) {
    options.notify("Cannot start the backend: this vault is not a folder on disk.");
    return false;
  }
  process.start(options.command, options.vaultPath, options.port);
  const deadline = options.waitMs ?? 20_000;
  for (let waited = 0; waited < deadline; waited += POLL_MS) {
    await new Promise<void>((resolve) => options.timers.setTimeout(resolve, POLL_MS));
    if (!process.running) return false;
    if ((await backend.probe()).kind !== "offline") {
      backend.notifyChanged();
      return true;
    }
  }
  options.notify(`The backend did not answer within ${Math.round(deadline / 1000)} s of starting; see its output by running ${options.command} serve in a terminal.`);
  return false;
}
