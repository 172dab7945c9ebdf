// Starting the backend with Obsidian (desktop only, opt-in): `cortexgraph-vault serve` for this
// vault, stopped when the plugin unloads. If a backend already answers, none is started.

import { spawn, type ChildProcess } from "child_process";

/** Arguments for serving `vaultPath` on `port`. */
export function serveArguments(vaultPath: string, port: number): string[] {
  return ["serve", "--vault", vaultPath, "--port", String(port)];
}

const TAIL_LINES = 8;

export class BackendProcess {
  private child: ChildProcess | null = null;
  private tail: string[] = [];

  constructor(private readonly onExit: (code: number | null, lastOutput: string) => void) {}

  get running(): boolean {
    return this.child !== null;
  }

  start(command: string, vaultPath: string, port: number): void {
    if (this.child) return;
    this.tail = [];
    const child = spawn(command, serveArguments(vaultPath, port), {
      stdio: ["ignore", "ignore", "pipe"],
      windowsHide: true,
    });
    this.child = child;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => this.remember(chunk));
    // A program that cannot be started emits "error" and never "exit".
    const ended = (code: number | null) => {
      if (this.child !== child) return;
      this.child = null;
      this.onExit(code, this.tail.join("\n"));
    };
    child.on("error", (error) => {
      this.remember(error.message);
      if (child.pid === undefined) ended(null);
    });
    child.on("exit", (code) => ended(code));
  }

  /** Stop the backend this plugin started (and only that one); resolves once it has exited
   *  (it finishes its last writes first: whoever removes its folders waits for this). */
  stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    return exited;
  }

  private remember(text: string): void {
    for (const line of text.split(/\r?\n/)) {
      if (line.trim()) this.tail.push(line.trim());
    }
    this.tail = this.tail.slice(-TAIL_LINES);
  }
}
