import { afterEach, describe, expect, it } from "vitest";
import { RelatedNotes } from "../../src/backend/related-notes";
import type { RelatedState } from "../../src/model/related";
import type { TransportResponse } from "../../src/api/transport";
import { FakeActiveNote } from "../support/active-note";
import { backendOver, refusedTransport } from "../support/backend";
import { FakeTransport, json } from "../support/fake-transport";
import { aHit } from "../support/memories";

const DELAY = 30;
const loaded: RelatedNotes[] = [];

afterEach(() => {
  for (const r of loaded.splice(0)) r.unload();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Serves /api/v1/related: one hit named after the asked path. */
function serving(answer: (path: string) => TransportResponse | Promise<TransportResponse> = (path) => json(200, related(path))): FakeTransport {
  return new FakeTransport()
    .on("GET /api/v1/config", () => json(200, { settings: [] }))
    .on("GET /api/v1/related", (_r, url) => answer(url.searchParams.get("path")!));
}

function related(path: string) {
  return { success: true, count: 1, results: [aHit({ title: `About ${path}`, path: `Notes/About ${path}` })] };
}

function start(transport: FakeTransport, active = new FakeActiveNote()) {
  const states: RelatedState[] = [];
  const notes = new RelatedNotes(backendOver(transport), active, (s) => states.push(s), { delayMs: DELAY, limit: 8 });
  notes.load();
  loaded.push(notes);
  const asked = () => transport.requests.filter((r) => r.url.includes("/api/v1/related")).map((r) => new URL(r.url).searchParams.get("path"));
  return { notes, active, states, asked };
}

describe("RelatedNotes", () => {
  it("asks once for the note a person stops at, however fast they flick through notes", async () => {
    const transport = serving();
    const { notes, active, asked } = start(transport);
    for (const path of ["A.md", "B.md", "C.md", "D.md", "E.md"]) {
      active.open(path);
      await sleep(DELAY / 3);
    }
    expect(notes.state).toEqual({ kind: "loading", path: "E.md" });
    await expect.poll(() => notes.state.kind).toBe("loaded");
    expect(asked()).toEqual(["E.md"]);
    expect(notes.state).toMatchObject({ path: "E.md", hits: [{ title: "About E.md" }] });
    const request = transport.requests.find((r) => r.url.includes("/api/v1/related"))!;
    expect(new URL(request.url).searchParams.get("limit")).toBe("8");
  });

  it("starts from the note already open and asks for it", async () => {
    const { notes, asked } = start(serving(), new FakeActiveNote("Areas/Running.md"));
    expect(notes.state).toEqual({ kind: "loading", path: "Areas/Running.md" });
    await expect.poll(() => notes.state.kind).toBe("loaded");
    expect(asked()).toEqual(["Areas/Running.md"]);
  });

  it("asks nothing when no note is open or the file is not Markdown", async () => {
    const { notes, active, asked } = start(serving());
    expect(notes.state).toEqual({ kind: "no-note" });
    active.open("Projects/assets/diagram.png");
    expect(notes.state).toEqual({ kind: "not-markdown", path: "Projects/assets/diagram.png" });
    active.open("Running.md");
    active.open(null);
    await sleep(DELAY * 3);
    notes.refresh();
    await sleep(DELAY);
    expect(notes.state).toEqual({ kind: "no-note" });
    expect(asked()).toEqual([]);
  });

  it("drops an answer that comes back after another note became active", async () => {
    const answers: (() => void)[] = [];
    const transport = serving((path) => new Promise((resolve) => answers.push(() => resolve(json(200, related(path))))));
    const { notes, active, asked } = start(transport);
    active.open("Old.md");
    await expect.poll(() => answers.length).toBe(1);
    active.open("New.md");
    answers[0]!();
    await sleep(5);
    expect(notes.state).toEqual({ kind: "loading", path: "New.md" });
    await expect.poll(() => answers.length).toBe(2);
    answers[1]!();
    await expect.poll(() => notes.state.kind).toBe("loaded");
    expect(notes.state).toMatchObject({ path: "New.md", hits: [{ title: "About New.md" }] });
    expect(asked()).toEqual(["Old.md", "New.md"]);
  });

  it("keeps one request in flight: refreshes meanwhile fold into one more", async () => {
    const answers: (() => void)[] = [];
    const transport = serving((path) => new Promise((resolve) => answers.push(() => resolve(json(200, related(path))))));
    const { notes, active, asked } = start(transport);
    active.open("A.md");
    await expect.poll(() => answers.length).toBe(1);
    answers.shift()!();
    await expect.poll(() => notes.state.kind).toBe("loaded");
    for (let i = 0; i < 5; i++) notes.refresh();
    await expect.poll(() => answers.length).toBe(1);
    answers.shift()!();
    await expect.poll(() => answers.length).toBe(1);
    answers.shift()!();
    await sleep(DELAY);
    expect(asked()).toEqual(["A.md", "A.md", "A.md"]);
    expect(notes.state).toMatchObject({ kind: "loaded", path: "A.md" });
  });

  it("tells an unknown note, an unreachable backend and a failure apart", async () => {
    const unknown = start(serving(() => json(404, { error: "not_found", detail: "New.md: no such Markdown note in the vault" })));
    unknown.active.open("New.md");
    await expect.poll(() => unknown.notes.state).toEqual({ kind: "unknown", path: "New.md" });

    const down = start(refusedTransport());
    down.active.open("A.md");
    await expect.poll(() => down.notes.state).toEqual({ kind: "unreachable", path: "A.md" });

    const busy = start(serving(() => json(503, { error: "busy", detail: "the vault lock is held by another process; try again" })));
    busy.active.open("A.md");
    await expect.poll(() => busy.notes.state).toEqual({
      kind: "failed",
      path: "A.md",
      message: "the vault lock is held by another process; try again",
    });
  });

  it("asks again once the backend is back, and stops listening when unloaded", async () => {
    let up = false;
    const live = serving();
    const flaky = new FakeTransport();
    flaky.send = (r) => (up ? live.send(r) : Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })));
    const { notes, active, states } = start(flaky);
    active.open("A.md");
    await expect.poll(() => notes.state.kind).toBe("unreachable");
    up = true;
    notes.refresh();
    await expect.poll(() => notes.state.kind).toBe("loaded");
    notes.unload();
    expect((active as unknown as { listenerCount(n: string): number }).listenerCount("path")).toBe(0);
    const seen = states.length;
    active.open("B.md");
    await sleep(DELAY * 3);
    expect(states.length).toBe(seen);
    expect(live.requests.filter((r) => r.url.includes("B.md"))).toEqual([]);
  });
});
