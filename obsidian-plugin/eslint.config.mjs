// Obsidian's review rules (eslint-plugin-obsidianmd recommended) on everything we ship.
// Tests and build scripts run in Node or a test page, not in the app: there `fetch`, Node's
// modules, plain timers and document.createElement are the right tools, so only the rules about
// those are relaxed for them. Everything under src/ gets the full recommended set.
import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";

export default defineConfig([
  {
    ignores: ["node_modules/", "main.js", "test-results/", "package-lock.json"],
  },
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["manifest.json", "eslint.config.mjs", "esbuild.config.mjs", "tests/support/*.mjs"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ["tests/**/*.ts", "tests/**/*.mjs", "scripts/**/*.mjs", "esbuild.config.mjs", "vitest.config.ts"],
    rules: {
      "no-restricted-globals": "off",
      "obsidianmd/no-nodejs-modules": "off",
      "import/no-extraneous-dependencies": "off",
      "obsidianmd/prefer-create-el": "off",
      "obsidianmd/prefer-window-timers": "off",
    },
  },
  {
    // The install script writes into a vault from outside Obsidian, where Vault#configDir
    // does not exist; it takes the folder name as an option.
    files: ["scripts/install-plugin.mjs"],
    rules: { "obsidianmd/hardcoded-config-path": "off" },
  },
]);
