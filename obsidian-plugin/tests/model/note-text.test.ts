import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/model/note-text";

describe("splitFrontmatter", () => {
  it("separates the properties from the body", () => {
    expect(splitFrontmatter("---\nid: 1\ntags: [a]\n---\nBody text\n")).toEqual({ frontmatter: "id: 1\ntags: [a]", body: "Body text\n" });
  });

  it("handles CRLF files and a note without properties", () => {
    expect(splitFrontmatter("---\r\nid: 1\r\n---\r\nBody")).toEqual({ frontmatter: "id: 1", body: "Body" });
    expect(splitFrontmatter("Just text\n---\nnot properties")).toEqual({ frontmatter: null, body: "Just text\n---\nnot properties" });
  });
});
