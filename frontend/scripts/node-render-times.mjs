// The Node column of the render-time table in server/benches/pages.rs: times the SAME server bundle
// (dist/server/server.js) the Rust server runs in its embedded engine, rendering the SAME props, in
// Node's V8, so that the embedded engine's figures have a known reference beside them. No npm
// packages.
//
//   node scripts/node-render-times.mjs --pages PAGES.json [--renders 500] [--warmup 20] [--dist dist]
//
// PAGES.json is an array of what to render: [{ "label": "home", "page": "home", "props": {…} }, …].
// Each page gets its warm-up renders, then its timed renders, as the bench does in the embedded
// engine. Prints one JSON line: { "home": { "medianMs": 0.25, "p95Ms": 0.4 }, … }.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const options = parseArguments(process.argv.slice(2));
const pages = JSON.parse(readFileSync(options.pages, "utf8"));
if (!Array.isArray(pages)) usage("the pages file must hold an array of { label, page, props }");

// The bundle is a classic script (an IIFE) that sets globalThis.ssrRender; it runs in Node's own
// global scope, as in node-render-server.mjs.
vm.runInThisContext(readFileSync(path.join(options.dist, "server", "server.js"), "utf8"), { filename: "server.js" });
// Its lazy page modules resolve in the job queue, as the Rust host drains it before rendering.
await new Promise((resolve) => setImmediate(resolve));
const ssrRender = globalThis.ssrRender;
if (typeof ssrRender !== "function") throw new Error("the server bundle did not define ssrRender");

const times = {};
for (const { label, page, props } of pages) {
  // The engine gets the props as a JSON string; so does Node, made once, outside the timing.
  const propsJson = JSON.stringify(props);
  // Parsing the answer is part of a render on both sides: the Rust host turns it into a RenderedPage.
  const render = () => JSON.parse(ssrRender(page, propsJson));
  for (let n = 0; n < options.warmup; n += 1) render();
  const elapsed = [];
  for (let n = 0; n < options.renders; n += 1) {
    const started = process.hrtime.bigint();
    render();
    elapsed.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times[label] = { medianMs: percentile(elapsed, 50), p95Ms: percentile(elapsed, 95) };
}
console.log(JSON.stringify(times));

/** The `p`th percentile (0 to 100) of `values`, nearest rank: the same as `common::percentile`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round((p / 100) * (sorted.length - 1))];
}

function parseArguments(args) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const parsed = { pages: "", renders: 500, warmup: 20, dist: path.join(root, "dist") };
  for (let n = 0; n < args.length; n += 2) {
    const [flag, value] = [args[n], args[n + 1]];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === "--pages") parsed.pages = path.resolve(value);
    else if (flag === "--renders") parsed.renders = Number(value);
    else if (flag === "--warmup") parsed.warmup = Number(value);
    else if (flag === "--dist") parsed.dist = path.resolve(value);
    else usage(`unknown option ${flag}`);
  }
  if (!parsed.pages) usage("--pages is required");
  if (!(Number.isInteger(parsed.renders) && parsed.renders >= 1)) usage("--renders is a whole number from 1");
  if (!(Number.isInteger(parsed.warmup) && parsed.warmup >= 0)) usage("--warmup is a whole number from 0");
  return parsed;
}

function usage(problem) {
  console.error(`node-render-times: ${problem}
usage: node scripts/node-render-times.mjs --pages PAGES.json [--renders 500] [--warmup 20] [--dist dist]`);
  process.exit(2);
}
