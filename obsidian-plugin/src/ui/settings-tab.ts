// Settings: where the backend is, which keychain secret holds its token, how often to refresh,
// and whether Obsidian starts the backend itself.

import { Notice, PluginSettingTab, SecretComponent, Setting, type App, type Plugin } from "obsidian";
import { readTokenFile, tokenFilePath } from "../backend/token-file";
import { DEFAULT_SETTINGS, LIMITS, checkBackendUrl, type CortexSettings } from "../settings";

export interface SettingsHost extends Plugin {
  settings: CortexSettings;
  saveSettings(): Promise<void>;
}

export class CortexSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly host: SettingsHost,
  ) {
    super(app, host);
  }

  display(): void {
    const { containerEl } = this;
    const settings = this.host.settings;
    containerEl.empty();

    new Setting(containerEl)
      .setName("Backend address")
      .setDesc(`Where cortexgraph-vault serve listens. Only this computer is allowed (default ${DEFAULT_SETTINGS.backendUrl}).`)
      .addText((text) =>
        text
          .setPlaceholder(DEFAULT_SETTINGS.backendUrl)
          .setValue(settings.backendUrl)
          .onChange(async (value) => {
            const checked = checkBackendUrl(value || DEFAULT_SETTINGS.backendUrl);
            text.inputEl.toggleClass("cg-invalid", "error" in checked);
            text.inputEl.setAttr("title", "error" in checked ? checked.error : "");
            if ("url" in checked) {
              settings.backendUrl = checked.url;
              await this.host.saveSettings();
            }
          }),
      );

    new Setting(containerEl)
      .setName("Token")
      .setDesc("The secret in Obsidian's keychain that holds the backend's token. It stays on this device and is never written to the plugin's data file.")
      .addComponent((el) =>
        new SecretComponent(this.app, el).setValue(settings.tokenSecret).onChange(async (value) => {
          settings.tokenSecret = value;
          await this.host.saveSettings();
        }),
      );

    new Setting(containerEl)
      .setName("Use the token of this computer's backend")
      .setDesc(`Copies the token from ${tokenFilePath()} into the keychain secret chosen above.`)
      .addButton((button) =>
        button.setButtonText("Copy token").onClick(async () => {
          const token = await readTokenFile();
          if (!token) {
            new Notice("No token file found. Start the backend once (cortexgraph-vault serve) and try again.");
            return;
          }
          const name = settings.tokenSecret || DEFAULT_SETTINGS.tokenSecret;
          this.app.secretStorage.setSecret(name, token);
          settings.tokenSecret = name;
          await this.host.saveSettings();
          new Notice(`Token stored in the keychain as "${name}"`);
          this.display();
        }),
      );

    new Setting(containerEl)
      .setName("Refresh every (seconds)")
      .setDesc("Scores fall as time passes, so the view refreshes on this timer as well as on changes.")
      .addSlider((slider) =>
        slider
          .setLimits(LIMITS.refreshSeconds.min, 600, 10)
          .setValue(settings.refreshSeconds)
          .setDynamicTooltip()
          .onChange(async (value) => {
            settings.refreshSeconds = value;
            await this.host.saveSettings();
          }),
      );

    new Setting(containerEl)
      .setName("Request timeout (seconds)")
      .addSlider((slider) =>
        slider
          .setLimits(LIMITS.timeoutSeconds.min, 60, 1)
          .setValue(settings.timeoutSeconds)
          .setDynamicTooltip()
          .onChange(async (value) => {
            settings.timeoutSeconds = value;
            await this.host.saveSettings();
          }),
      );

    new Setting(containerEl)
      .setName("Start the backend when Obsidian starts")
      .setDesc("Runs cortexgraph-vault serve for this vault unless a backend already answers, and stops it when Obsidian closes.")
      .addToggle((toggle) =>
        toggle.setValue(settings.startBackend).onChange(async (value) => {
          settings.startBackend = value;
          await this.host.saveSettings();
        }),
      );

    new Setting(containerEl)
      .setName("Backend program")
      .setDesc("The cortexgraph-vault program; give its full path if Obsidian cannot find it.")
      .addText((text) =>
        text
          .setPlaceholder(DEFAULT_SETTINGS.backendCommand)
          .setValue(settings.backendCommand)
          .onChange(async (value) => {
            settings.backendCommand = value.trim() || DEFAULT_SETTINGS.backendCommand;
            await this.host.saveSettings();
          }),
      );
  }
}
