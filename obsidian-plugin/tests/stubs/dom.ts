// Obsidian's DOM helpers (createEl, createDiv, setText, setCssProps, ...) for happy-dom and for
// the Chromium test page. Same signatures and effects as the app's, only what our code uses.

interface ElInfo {
  cls?: string | string[];
  text?: string;
  attr?: Record<string, string | number | boolean | null>;
  title?: string;
  value?: string;
  type?: string;
  placeholder?: string;
  href?: string;
}

function classes(cls: string | string[] | undefined): string[] {
  if (!cls) return [];
  return (Array.isArray(cls) ? cls : cls.split(" ")).filter(Boolean);
}

function apply(el: HTMLElement, o: ElInfo | string | undefined): void {
  if (o === undefined) return;
  if (typeof o === "string") {
    el.className = o;
    return;
  }
  el.classList.add(...classes(o.cls));
  if (o.text !== undefined) el.textContent = o.text;
  if (o.title !== undefined) el.title = o.title;
  if (o.value !== undefined) (el as HTMLInputElement).value = o.value;
  if (o.type !== undefined) el.setAttribute("type", o.type);
  if (o.placeholder !== undefined) el.setAttribute("placeholder", o.placeholder);
  if (o.href !== undefined) el.setAttribute("href", o.href);
  for (const [name, value] of Object.entries(o.attr ?? {})) {
    if (value === null || value === false) el.removeAttribute(name);
    else el.setAttribute(name, String(value));
  }
}

type Proto = Record<string, unknown>;

export function installDomHelpers(win: { HTMLElement: { prototype: object }; document: Document }): void {
  const proto = win.HTMLElement.prototype as Proto;
  if (proto.createEl) return;
  const doc = win.document;
  proto.createEl = function (this: HTMLElement, tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
    const el = doc.createElement(tag);
    apply(el, o);
    this.appendChild(el);
    cb?.(el);
    return el;
  };
  proto.createDiv = function (this: HTMLElement, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
    return (this as unknown as { createEl: (t: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => HTMLElement }).createEl("div", o, cb);
  };
  proto.createSpan = function (this: HTMLElement, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
    return (this as unknown as { createEl: (t: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => HTMLElement }).createEl("span", o, cb);
  };
  proto.empty = function (this: HTMLElement) {
    while (this.firstChild) this.removeChild(this.firstChild);
  };
  proto.setText = function (this: HTMLElement, text: string) {
    this.textContent = text;
  };
  proto.addClass = function (this: HTMLElement, ...cls: string[]) {
    this.classList.add(...cls);
  };
  proto.removeClass = function (this: HTMLElement, ...cls: string[]) {
    this.classList.remove(...cls);
  };
  proto.toggleClass = function (this: HTMLElement, cls: string, value: boolean) {
    this.classList.toggle(cls, value);
  };
  proto.hasClass = function (this: HTMLElement, cls: string) {
    return this.classList.contains(cls);
  };
  proto.setAttr = function (this: HTMLElement, name: string, value: string | number | boolean | null) {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  };
  proto.setCssProps = function (this: HTMLElement, props: Record<string, string>) {
    for (const [name, value] of Object.entries(props)) this.style.setProperty(name, value);
  };
}
