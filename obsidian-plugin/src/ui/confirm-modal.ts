// A yes-or-no question before something a person may not have meant.

import { Modal, Setting, type App } from "obsidian";

export function confirm(app: App, title: string, text: string, yes: string): Promise<boolean> {
  return new Promise((resolve) => new ConfirmModal(app, title, text, yes, resolve).open());
}

class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly title: string,
    private readonly text: string,
    private readonly yes: string,
    private readonly answer: (yes: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle(this.title);
    this.contentEl.createEl("p", { text: this.text });
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton((b) =>
        b
          .setButtonText(this.yes)
          .setCta()
          .onClick(() => {
            this.answered = true;
            this.answer(true);
            this.close();
          }),
      );
  }

  override onClose(): void {
    if (!this.answered) this.answer(false);
    this.contentEl.empty();
  }
}
