// The Memories view in Debian's Chromium (playwright-core) against the real daemon: rows are
// drawn from live data, "Reinforce" on a row raises its use count in the view and in the file,
// "Related to this note" follows the active note, and screenshots are kept in test-results/.

import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TransportRequest } from "../../src/api/transport";
import { fetchTransport } from "../support/fetch-transport";
import { frontmatterField, startDaemon, type RunningDaemon } from "../integration/daemon";

const here = dirname(fileURLToPath(import.meta.url));
const pluginDir = resolve(here, "..", "..");
const resultsDir = join(pluginDir, "test-results");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let daemon: RunningDaemon;
let browser: Browser;
let page: Page;
/** Every request the page sent. */
const sent: URL[] = [];

async function bundlePage(): Promise<string> {
  const built = await esbuild.build({
    entryPoints: [join(here, "page-entry.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    alias: { obsidian: join(pluginDir, "tests", "stubs", "obsidian.ts") },
    logLevel: "silent",
  });
  return built.outputFiles[0]!.text;
}

beforeAll(async () => {
  mkdirSync(resultsDir, { recursive: true });
  const [started, script] = await Promise.all([startDaemon(), bundlePage()]);
  daemon = started;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 760, height: 1100 } });
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.exposeFunction("cgSend", (request: TransportRequest) => {
    sent.push(new URL(request.url));
    return fetchTransport.send(request);
  });
  await page.setContent(readFileSync(join(here, "page.html"), "utf8"));
  await page.addStyleTag({ content: readFileSync(join(pluginDir, "styles.css"), "utf8") });
  await page.addScriptTag({ content: script });
  await page.evaluate(([url, token]) => window.startMemories(url!, token!), [daemon.baseUrl, daemon.token]);
  expect(pageErrors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const row = (title: string) => page.locator(".cg-list .cg-row", { has: page.locator(".cg-title", { hasText: title }) });
const related = () => page.locator(".cg-related");
/** The note of each request for related notes, with its limit. */
const relatedAsked = () =>
  sent.filter((u) => u.pathname === "/api/v1/related").map((u) => `${u.searchParams.get("path")} (limit ${u.searchParams.get("limit")})`);

describe("the Memories view in Chromium", () => {
  it("draws one row per short-term memory, strongest first, with bars as wide as the scores", async () => {
    const memories = await daemon.client().allMemories("active");
    await expect.poll(() => page.locator(".cg-list .cg-row").count()).toBe(memories.length);
    const titles = await page.locator(".cg-list .cg-row .cg-title").allTextContents();
    expect(titles).toEqual(memories.map((m) => m.title));
    const first = memories[0]!;
    const width = await row(first.title).locator(".cg-bar-fill").evaluate((el) => el.getBoundingClientRect().width);
    const track = await row(first.title).locator(".cg-bar").evaluate((el) => el.getBoundingClientRect().width);
    expect(width / track).toBeCloseTo(Math.min(1, first.score ?? 0), 1);
    const chips = new Set(await page.locator(".cg-list .cg-row .cg-chip").allTextContents());
    for (const label of ["Promotable", "About to be forgotten"]) expect(chips.has(label)).toBe(true);
  });

  it("reinforces a fading memory when its button is clicked: the view, the backend and the file agree", async () => {
    const memories = await daemon.client().allMemories("active");
    const target = memories.find((m) => m.review_priority > 0) ?? memories.at(-1)!;
    const uses = row(target.title).locator(".cg-uses");
    expect(await uses.textContent()).toBe(`${target.use_count} uses`.replace(/^1 uses$/, "1 use"));
    await row(target.title).locator("button", { hasText: "Reinforce" }).click();
    await expect.poll(() => uses.textContent(), { timeout: 15_000 }).toBe(`${target.use_count + 1} uses`);
    const notices = await page.evaluate(() => window.cgNotices);
    expect(notices.at(-1)).toContain(`Reinforced "${target.title}"`);
    const fresh = await daemon.client().lookup(target.path);
    expect(fresh?.use_count).toBe(target.use_count + 1);
    expect(frontmatterField(daemon.read(target.path), "use_count")).toBe(String(target.use_count + 1));
    await row(target.title).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, "memories-view.png"), fullPage: true });
  });

  it("shows what is related to the active note, asking once for the note a person stops at", async () => {
    await expect.poll(() => related().getAttribute("data-state")).toBe("no-note");
    expect(await related().locator(".cg-related-empty").textContent()).toBe("Open a note to see the memories and notes related to it.");
    const before = relatedAsked().length;
    // flick through notes, as with Ctrl+Tab, and stop at the half marathon memory
    const flicked = ["Home.md", "Projects/Project Atlas.md", "People/Priya Raman.md", "_stm/Half marathon goal.md"];
    await page.evaluate((paths) => paths.forEach((p) => window.cgOpenNote(p)), flicked);
    await expect.poll(() => related().getAttribute("data-state"), { timeout: 15_000 }).toBe("loaded");
    expect(relatedAsked().slice(before)).toEqual(["_stm/Half marathon goal.md (limit 8)"]);
    const expected = await daemon.client().related("_stm/Half marathon goal.md", 8);
    expect(await related().locator(".cg-row .cg-title").allTextContents()).toEqual(expected.results.map((h) => h.title));
    expect(expected.results[0]?.path).toBe("Areas/Running.md");
    expect(await related().locator(".cg-related-note").textContent()).toBe("Half marathon goal");
    await related().locator(".cg-row .cg-title", { hasText: "Running" }).first().click();
    expect(await page.evaluate(() => window.cgOpened)).toContain("Areas/Running.md");
    await related().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, "related-to-this-note.png") });

    await page.evaluate(() => window.cgOpenNote("Areas/Running.md"));
    await expect.poll(() => related().locator(".cg-related-note").textContent()).toBe("Running");
    await expect.poll(() => related().locator(".cg-row .cg-title").allTextContents(), { timeout: 15_000 }).toContain("Half marathon goal");
    expect(await related().locator(".cg-row .cg-title").allTextContents()).not.toContain("Running");
  });

  it("asks nothing for a file that is not a note, or when no file is open", async () => {
    const before = relatedAsked().length;
    await page.evaluate(() => window.cgOpenNote("Projects/assets/atlas-architecture.png"));
    await expect.poll(() => related().locator(".cg-related-empty").textContent()).toBe(
      "atlas-architecture.png is not a Markdown note; related memories are found for notes.",
    );
    expect(await related().locator(".cg-row").count()).toBe(0);
    await page.evaluate(() => window.cgOpenNote(null));
    await expect.poll(() => related().getAttribute("data-state")).toBe("no-note");
    await new Promise((r) => setTimeout(r, 1000));
    expect(relatedAsked().length).toBe(before);
  });
});
