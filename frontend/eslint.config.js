// ESLint for the frontend: JavaScript's and typescript-eslint's recommended rules, and React's rules
// of hooks. How the code is laid out is Prettier's business (.prettierrc), not ESLint's.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores(["dist/", "test-results/", "playwright-report/", "src/lib/generated/", "*.tmp.mjs"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    // The build, the test runners and the browser tests run in Node.
    files: ["*.{js,mjs,ts}", "scripts/**", "tests/**"],
    languageOptions: { globals: globals.node },
  },
  {
    // The unit tests run in Node too, beside the modules they test.
    files: ["src/**/*.test.ts"],
    languageOptions: { globals: globals.node },
  },
]);
