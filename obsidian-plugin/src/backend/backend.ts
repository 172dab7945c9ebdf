// The plugin's one handle on the daemon: the client for the current settings, whether the daemon
// is reachable, its effective configuration, and events views listen to. Views and commands go
// through `run`, so every call keeps the connection state true.

import { Events, type EventRef } from "obsidian";
import { CortexClient, type Timers } from "../api/client";
import type { Transport } from "../api/transport";
import { DEFAULT_CONFIG, configFromSettings, type BackendConfig } from "../model/backend-config";
import { stateAfter, type ConnectionState } from "../model/connection";

export interface BackendOptions {
  baseUrl: string;
  token: () => string | null;
  timeoutMs: number;
}

export class Backend extends Events {
  private options!: BackendOptions;
  private current: CortexClient;
  private connection: ConnectionState = { kind: "unknown" };
  private loadedConfig: BackendConfig = DEFAULT_CONFIG;
  private configLoaded = false;

  constructor(
    options: BackendOptions,
    private readonly transport: Transport,
    private readonly timers: Timers,
  ) {
    super();
    this.current = this.makeClient(options);
  }

  get state(): ConnectionState {
    return this.connection;
  }

  get config(): BackendConfig {
    return this.loadedConfig;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** New URL, token or timeout: later calls use them; the state is unknown until the next call. */
  reconfigure(options: BackendOptions): void {
    this.current = this.makeClient(options);
    this.configLoaded = false;
    this.setState({ kind: "unknown" });
    this.trigger("changed");
  }

  /** Run one call; a connection failure updates the state and is rethrown for the caller. */
  async run<T>(call: (client: CortexClient) => Promise<T>): Promise<T> {
    try {
      const result = await call(this.current);
      this.setState({ kind: "online" });
      if (!this.configLoaded) await this.loadConfig();
      return result;
    } catch (error) {
      const next = stateAfter(error);
      if (next) this.setState(next);
      else this.setState({ kind: "online" });
      throw error;
    }
  }

  /** Ask the daemon whether it is there (no token needed) and update the state. */
  async probe(): Promise<ConnectionState> {
    try {
      await this.run((c) => c.health());
    } catch {
      // the state now says why
    }
    return this.connection;
  }

  /** Something changed in the vault or the backend: views reload. */
  notifyChanged(): void {
    this.trigger("changed");
  }

  onChanged(callback: () => void): EventRef {
    return this.on("changed", callback);
  }

  onState(callback: (state: ConnectionState) => void): EventRef {
    return this.on("state", (state) => callback(state as ConnectionState));
  }

  private async loadConfig(): Promise<void> {
    this.configLoaded = true;
    try {
      const result = await this.current.config();
      this.loadedConfig = configFromSettings(result.settings);
    } catch {
      // An older or partial backend: the defaults are the backend's defaults.
      this.loadedConfig = DEFAULT_CONFIG;
    }
  }

  private setState(next: ConnectionState): void {
    const before = this.connection;
    this.connection = next;
    if (before.kind !== next.kind || ("message" in before && "message" in next && before.message !== next.message)) {
      this.trigger("state", next);
    }
  }

  private makeClient(options: BackendOptions): CortexClient {
    this.options = options;
    return new CortexClient({
      baseUrl: options.baseUrl,
      token: options.token,
      transport: this.transport,
      timeoutMs: options.timeoutMs,
      timers: this.timers,
    });
  }
}
