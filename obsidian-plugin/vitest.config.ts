import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The `obsidian` package ships types only; tests run against a small stub of what they use.
const obsidianStub = fileURLToPath(new URL("./tests/stubs/obsidian.ts", import.meta.url));

export default defineConfig({
  resolve: { alias: { obsidian: obsidianStub } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/{api,model,ui,backend,actions,scripts}/**/*.test.ts", "tests/*.test.ts"],
          // Pure logic runs in Node; files that render declare `@vitest-environment happy-dom`.
          environment: "node",
          setupFiles: ["tests/stubs/setup-dom.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
