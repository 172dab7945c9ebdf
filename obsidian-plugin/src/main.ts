// Lifecycle only: build the parts, register views, commands, events and timers, and let
// Obsidian tear all of it down on unload.

import { FileSystemAdapter, Notice, Plugin, TFile, debounce, type TAbstractFile, type WorkspaceLeaf } from "obsidian";
import { MemoryActions } from "./actions/memory-actions";
import { WorkspaceNotes } from "./actions/open-notes";
import { requestUrlTransport } from "./api/obsidian-transport";
import { ActiveMemory } from "./backend/active-memory";
import { autostart } from "./backend/autostart";
import { Backend, type BackendOptions } from "./backend/backend";
import { BackendProcess } from "./backend/server-process";
import { SyncState } from "./backend/sync-state";
import { touchesMemories } from "./model/backend-config";
import { DEFAULT_SETTINGS, portOf, settingsFrom, type CortexSettings } from "./settings";
import { memoryCommands } from "./ui/commands";
import { addMemoryMenuItems } from "./ui/file-menu";
import { MemoryFlows } from "./ui/flows";
import { MEMORIES_VIEW, MemoriesView } from "./ui/memories-view";
import { CortexSettingTab, type SettingsHost } from "./ui/settings-tab";
import { MemoryStatusBar } from "./ui/status-bar";
import { syncCommand } from "./ui/sync-command";

export default class CortexMemoriesPlugin extends Plugin implements SettingsHost {
  settings: CortexSettings = { ...DEFAULT_SETTINGS };
  private backend!: Backend;
  private active!: ActiveMemory;
  private refreshTimer: number | null = null;
  private readonly synced = new SyncState();

  override async onload(): Promise<void> {
    this.settings = settingsFrom(await this.loadData());
    const backend = (this.backend = new Backend(this.backendOptions(), requestUrlTransport, window));
    const active = (this.active = new ActiveMemory(backend));
    const actions = new MemoryActions(backend, new WorkspaceNotes(this.app), (message) => new Notice(message));
    const flows = new MemoryFlows(this.app, backend, active, actions);
    const activateView = () => this.activateView();

    this.registerView(
      MEMORIES_VIEW,
      (leaf) =>
        new MemoriesView(leaf, {
          backend,
          actions,
          now: () => new Date(),
          showHistory: (memory) => void flows.showHistory(memory),
          promote: (memory) => flows.promoteMemory(memory),
          supersede: (memory) => flows.pickSuperseded(memory),
          openSettings: () => this.openSettings(),
          activeNote: active,
        }),
    );
    for (const command of memoryCommands({ app: this.app, backend, active, flows, activateView })) {
      this.addCommand(command);
    }
    const synced = this.synced;
    this.addCommand(syncCommand(backend, (message) => new Notice(message), synced));
    this.addRibbonIcon("brain", "Open memories view", () => void activateView());
    this.addSettingTab(new CortexSettingTab(this.app, this));
    this.addChild(new MemoryStatusBar(this.addStatusBarItem(), backend, active, actions, () => void activateView(), synced));
    this.registerEvent(
      this.app.workspace.on("file-menu", (menu, file) => addMemoryMenuItems(menu, file, backend, flows)),
    );
    this.app.workspace.onLayoutReady(() => this.onLayoutReady());
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
    this.backend.reconfigure(this.backendOptions());
    this.startRefreshTimer();
  }

  private onLayoutReady(): void {
    const backend = this.backend;
    const active = this.active;
    // Registered only now: during startup the vault reports every file as new.
    const changedSoon = debounce(
      () => {
        backend.notifyChanged();
        void active.lookup();
      },
      1500,
      true,
    );
    const onPaths = (...paths: (string | null | undefined)[]) => {
      if (touchesMemories(paths, backend.config.folders)) changedSoon();
    };
    this.register(() => changedSoon.cancel());
    this.registerEvent(this.app.metadataCache.on("changed", (file: TFile) => onPaths(file.path)));
    this.registerEvent(
      this.app.vault.on("rename", (file: TAbstractFile, oldPath: string) => {
        onPaths(file.path, oldPath);
        void active.renamed(oldPath, file.path);
      }),
    );
    this.registerEvent(this.app.vault.on("delete", (file: TAbstractFile) => onPaths(file.path)));
    this.registerEvent(this.app.workspace.on("file-open", (file) => void active.track(file?.path ?? null)));
    this.startRefreshTimer();
    void active.track(this.app.workspace.getActiveFile()?.path ?? null);
    const started = this.settings.startBackend ? this.startBackend() : backend.probe();
    void started.then(() => this.synced.refresh(backend));
  }

  private async startBackend(): Promise<void> {
    const process = new BackendProcess((code, lastOutput) => {
      new Notice(`The memory backend stopped (exit code ${code ?? "none"}).${lastOutput ? `\n${lastOutput}` : ""}`);
      void this.backend.probe();
    });
    this.register(() => void process.stop());
    const adapter = this.app.vault.adapter;
    await autostart({
      backend: this.backend,
      process,
      command: this.settings.backendCommand,
      vaultPath: adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null,
      port: portOf(this.settings.backendUrl),
      notify: (message) => new Notice(message),
      timers: window,
    });
    await this.active.lookup();
  }

  // Scores decay with time even when nothing changes, so views also refresh on a timer.
  private startRefreshTimer(): void {
    if (this.refreshTimer !== null) window.clearInterval(this.refreshTimer);
    this.refreshTimer = window.setInterval(() => {
      // With no view open, only this notices a backend that has come (back) up.
      if (this.backend.state.kind !== "online") void this.backend.probe();
      this.backend.notifyChanged();
      void this.active.lookup();
      void this.synced.refresh(this.backend);
    }, this.settings.refreshSeconds * 1000);
    this.registerInterval(this.refreshTimer);
  }

  private async activateView(): Promise<void> {
    const { workspace } = this.app;
    let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(MEMORIES_VIEW)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      await leaf?.setViewState({ type: MEMORIES_VIEW, active: true });
    }
    if (leaf) await workspace.revealLeaf(leaf);
  }

  private openSettings(): void {
    const setting = (this.app as unknown as { setting?: { open(): void; openTabById(id: string): void } }).setting;
    setting?.open();
    setting?.openTabById(this.manifest.id);
  }

  private backendOptions(): BackendOptions {
    return {
      baseUrl: this.settings.backendUrl,
      token: () => (this.settings.tokenSecret ? this.app.secretStorage.getSecret(this.settings.tokenSecret) : null),
      timeoutMs: this.settings.timeoutSeconds * 1000,
    };
  }
}
