// Runs the frontend unit tests (src/**/*.test.ts) with Node's own test runner: esbuild compiles
// them first, since this Node cannot run TypeScript by itself. The output stays under node_modules so
// that imports of packages still resolve.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tests = readdirSync(path.join(root, "src"), { recursive: true })
  .filter((file) => String(file).endsWith(".test.ts"))
  .map((file) => path.join(root, "src", String(file)));
if (tests.length === 0) {
  console.error("no unit tests found under src/");
  process.exit(1);
}

const outdir = path.join(root, "node_modules", ".cache", "unit-tests");
rmSync(outdir, { recursive: true, force: true });
try {
  await build({
    entryPoints: tests,
    outdir,
    outbase: path.join(root, "src"),
    bundle: true,
    platform: "node",
    format: "esm",
    outExtension: { ".js": ".mjs" },
    packages: "external",
    logLevel: "warning",
  });
  const compiled = readdirSync(outdir, { recursive: true })
    .filter((file) => String(file).endsWith(".test.mjs"))
    .map((file) => path.join(outdir, String(file)));
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=spec", ...compiled], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
