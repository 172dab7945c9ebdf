// A stand-in for the `obsidian` module (which ships types only), holding just what the tests
// and the Chromium test page use. Behaviour mirrors the app where our code relies on it.

export interface EventRef {
  name: string;
  callback: (...data: unknown[]) => unknown;
  /** Remembered so that registerEvent can detach the listener, as in the app. */
  source: Events;
}

export class Events {
  private handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: unknown[]) => unknown): EventRef {
    const ref: EventRef = { name, callback, source: this };
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), ref]);
    return ref;
  }

  off(name: string, callback: (...data: unknown[]) => unknown): void {
    this.handlers.set(name, (this.handlers.get(name) ?? []).filter((r) => r.callback !== callback));
  }

  offref(ref: EventRef): void {
    this.handlers.set(ref.name, (this.handlers.get(ref.name) ?? []).filter((r) => r !== ref));
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this.handlers.get(name) ?? [])]) ref.callback(...data);
  }

  /** For tests: how many listeners are attached (checks clean unload). */
  listenerCount(name: string): number {
    return (this.handlers.get(name) ?? []).length;
  }
}

export class Component {
  private cleanups: (() => void)[] = [];
  private children: Component[] = [];
  loaded = false;

  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    this.onload();
    for (const child of this.children) child.load();
  }

  unload(): void {
    if (!this.loaded) return;
    this.loaded = false;
    for (const child of this.children.splice(0)) child.unload();
    for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
    this.onunload();
  }

  onload(): void {}
  onunload(): void {}

  addChild<T extends Component>(child: T): T {
    this.children.push(child);
    if (this.loaded) child.load();
    return child;
  }

  removeChild<T extends Component>(child: T): T {
    this.children = this.children.filter((c) => c !== child);
    child.unload();
    return child;
  }

  register(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  registerEvent(ref: EventRef): void {
    this.register(() => ref.source.offref(ref));
  }

  registerDomEvent(el: HTMLElement, type: string, callback: (event: Event) => void): void {
    el.addEventListener(type, callback);
    this.register(() => el.removeEventListener(type, callback));
  }

  registerInterval(id: number): number {
    this.register(() => clearInterval(id));
    return id;
  }
}

export interface Debouncer<T extends unknown[]> {
  (...args: T): Debouncer<T>;
  cancel(): Debouncer<T>;
  run(): void;
}

export function debounce<T extends unknown[]>(cb: (...args: T) => unknown, timeout = 0): Debouncer<T> {
  let handle: ReturnType<typeof setTimeout> | undefined;
  let lastArgs: T | null = null;
  const fn = ((...args: T) => {
    lastArgs = args;
    if (handle !== undefined) clearTimeout(handle);
    handle = setTimeout(() => {
      handle = undefined;
      if (lastArgs) cb(...lastArgs);
    }, timeout);
    return fn;
  }) as Debouncer<T>;
  fn.cancel = () => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
    return fn;
  };
  fn.run = () => {
    if (handle !== undefined && lastArgs) {
      fn.cancel();
      cb(...lastArgs);
    }
  };
  return fn;
}

export const notices: string[] = [];

export class Notice {
  constructor(message: string) {
    notices.push(message);
  }
}

export class TAbstractFile {
  constructor(public path: string) {}
}

export class TFile extends TAbstractFile {}

export class MarkdownView {
  saved = 0;
  constructor(
    public file: TFile | null,
    private readonly onSave?: () => void,
  ) {}

  async save(): Promise<void> {
    this.saved += 1;
    this.onSave?.();
  }
}

export class ItemView extends Component {
  contentEl: HTMLElement;
  constructor(public leaf: unknown) {
    super();
    this.contentEl = document.createElement("div");
  }
}

/** Modals currently open, newest last, so tests can answer them. */
export const openModals: Modal[] = [];

export class Modal {
  titleEl = document.createElement("div");
  contentEl = document.createElement("div");
  modalEl = document.createElement("div");
  isOpen = false;
  constructor(public app: unknown) {}
  open(): void {
    this.isOpen = true;
    openModals.push(this);
    this.onOpen();
  }
  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    openModals.splice(openModals.indexOf(this), 1);
    this.onClose();
  }
  onOpen(): void {}
  onClose(): void {}
  setTitle(title: string): this {
    this.titleEl.textContent = title;
    return this;
  }
}

export class SuggestModal<T> extends Modal {
  emptyStateText = "";
  placeholder = "";
  setPlaceholder(text: string): void {
    this.placeholder = text;
  }
  declare chosen?: T;
}

export class ButtonComponent {
  buttonEl: HTMLButtonElement;
  constructor(parent: HTMLElement) {
    this.buttonEl = parent.createEl("button");
  }
  setButtonText(text: string): this {
    this.buttonEl.textContent = text;
    return this;
  }
  setCta(): this {
    this.buttonEl.classList.add("mod-cta");
    return this;
  }
  setWarning(): this {
    this.buttonEl.classList.add("mod-warning");
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.buttonEl.disabled = disabled;
    return this;
  }
  onClick(callback: () => unknown): this {
    this.buttonEl.addEventListener("click", () => void callback());
    return this;
  }
}

export class ToggleComponent {
  toggleEl: HTMLInputElement;
  constructor(parent: HTMLElement) {
    this.toggleEl = parent.createEl("input", { type: "checkbox" });
  }
  setValue(value: boolean): this {
    this.toggleEl.checked = value;
    return this;
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.toggleEl.addEventListener("change", () => void callback(this.toggleEl.checked));
    return this;
  }
}

export class Setting {
  settingEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: "setting-item" });
    this.nameEl = this.settingEl.createDiv({ cls: "setting-item-name" });
    this.descEl = this.settingEl.createDiv({ cls: "setting-item-description" });
    this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
  }
  setName(name: string): this {
    this.nameEl.textContent = name;
    return this;
  }
  setDesc(desc: string): this {
    this.descEl.textContent = desc;
    return this;
  }
  addButton(cb: (button: ButtonComponent) => unknown): this {
    cb(new ButtonComponent(this.controlEl));
    return this;
  }
  addToggle(cb: (toggle: ToggleComponent) => unknown): this {
    cb(new ToggleComponent(this.controlEl));
    return this;
  }
}

export class PluginSettingTab {
  containerEl = document.createElement("div");
  constructor(
    public app: unknown,
    public plugin: unknown,
  ) {}
}
export class SecretComponent {}
export class FileSystemAdapter {
  constructor(private readonly base: string) {}
  getBasePath(): string {
    return this.base;
  }
}
export class Menu {}

/** What a plugin registered, so tests can check it and that unload undoes it. */
export interface Registered {
  views: Map<string, (leaf: unknown) => unknown>;
  commands: { id: string; name: string; hotkeys?: unknown }[];
  ribbons: string[];
  settingTabs: unknown[];
  statusBarItems: HTMLElement[];
  intervals: Set<number>;
}

export class Plugin extends Component {
  readonly registered: Registered = { views: new Map(), commands: [], ribbons: [], settingTabs: [], statusBarItems: [], intervals: new Set() };
  private data: unknown = null;

  constructor(
    public app: unknown,
    public manifest: { id: string },
  ) {
    super();
  }

  async loadData(): Promise<unknown> {
    return this.data;
  }

  async saveData(data: unknown): Promise<void> {
    this.data = JSON.parse(JSON.stringify(data));
  }

  registerView(type: string, factory: (leaf: unknown) => unknown): void {
    this.registered.views.set(type, factory);
    this.register(() => this.registered.views.delete(type));
  }

  addCommand(command: { id: string; name: string }): void {
    this.registered.commands.push(command);
  }

  addRibbonIcon(_icon: string, title: string): HTMLElement {
    this.registered.ribbons.push(title);
    return document.createElement("div");
  }

  addSettingTab(tab: unknown): void {
    this.registered.settingTabs.push(tab);
  }

  addStatusBarItem(): HTMLElement {
    const el = document.createElement("div");
    this.registered.statusBarItems.push(el);
    this.register(() => el.remove());
    return el;
  }

  override registerInterval(id: number): number {
    this.registered.intervals.add(id);
    this.register(() => {
      clearInterval(id);
      this.registered.intervals.delete(id);
    });
    return id;
  }
}

export const MarkdownRenderer = {
  async render(_app: unknown, markdown: string, el: HTMLElement): Promise<void> {
    el.createDiv({ text: markdown });
  },
};

/** In tests no backend listens behind requestUrl: it fails as Electron does for a closed port. */
export function requestUrl(): Promise<never> {
  return Promise.reject(new Error("net::ERR_CONNECTION_REFUSED"));
}
