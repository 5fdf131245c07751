// Builds the frontend with esbuild's API:
// - dist/server/server.js: one self-contained classic script for the server's embedded engine;
// - dist/client/: the browser's ES modules, split per page, with hashed names, and the CSS: the
//   site's stylesheet, for every page, the staff pages' own, sent to those pages only, and the
//   valet page's, which that page carries instead of the site's;
// - dist/manifest.json: which files the server must name for each page.
// Both bundles start from the one route table in src/routes.ts.
import { build } from "esbuild";
import ts from "typescript";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, "dist");
const production = process.env.NODE_ENV !== "development";
const define = { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") };

// React's `react-dom/server` brings the streaming renderer too, which needs web streams and
// TextEncoder; the server only calls renderToString, so it gets the legacy renderer alone.
const legacyServerRenderer = {
  name: "legacy-server-renderer",
  setup(build) {
    build.onResolve({ filter: /^react-dom\/server$/ }, () => ({
      path: path.join(
        root,
        "node_modules/react-dom/cjs",
        `react-dom-server-legacy.browser.${production ? "production" : "development"}.js`,
      ),
    }));
  },
};

/**
 * Page name → source file, read from the route table (`export const routes = { name: () =>
 * import("./pages/…"), … }`) with TypeScript's own parser, so that the two cannot drift.
 */
function pageSources() {
  const file = path.join(root, "src/routes.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const table = source.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((declaration) => declaration.name.getText(source) === "routes")?.initializer;
  const literal = table && ts.isSatisfiesExpression(table) ? table.expression : table;
  if (!literal || !ts.isObjectLiteralExpression(literal)) throw new Error("src/routes.ts has no `routes` table");
  const pages = literal.properties.map((property) => {
    const loader = ts.isPropertyAssignment(property) ? property.initializer : undefined;
    const call = loader && ts.isArrowFunction(loader) ? loader.body : undefined;
    const specifier = call && ts.isCallExpression(call) ? call.arguments[0] : undefined;
    if (!specifier || !ts.isStringLiteral(specifier) || call.expression.kind !== ts.SyntaxKind.ImportKeyword) {
      throw new Error(`src/routes.ts: ${property.getText(source)} is not \`name: () => import("./pages/…")\``);
    }
    const name = property.name.getText(source).replace(/^"|"$/g, "");
    return [name, path.relative(root, path.join(root, "src", `${specifier.text}.tsx`))];
  });
  return new Map(pages);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// Images imported by components become hashed files under /assets/; both builds compute the same
// URL from the content, and the client build's copy is the one served.
const images = { loader: { ".svg": "file", ".png": "file", ".jpg": "file", ".webp": "file" }, publicPath: "/assets/" };

await build({
  ...images,
  entryPoints: [path.join(root, "src/entry-server.tsx")],
  outfile: path.join(dist, "server/server.js"),
  bundle: true,
  format: "iife",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  // Names and syntax minified, line breaks kept: QuickJS parses one long line many times slower
  // than the same code over many lines (a render process's start, BENCHMARKS.md).
  minifyIdentifiers: production,
  minifySyntax: production,
  minifyWhitespace: false,
  legalComments: "none",
  define,
  plugins: [legacyServerRenderer],
  logLevel: "warning",
});

const client = await build({
  ...images,
  entryPoints: {
    "entry-client": path.join(root, "src/entry-client.tsx"),
    site: path.join(root, "src/styles/site.css"),
    staff: path.join(root, "src/styles/staff.css"),
    valet: path.join(root, "src/styles/valet.css"),
  },
  outdir: path.join(dist, "client"),
  entryNames: "[name]-[hash]",
  chunkNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: ["es2022", "chrome100", "safari15", "firefox100"],
  minify: production,
  legalComments: "none",
  define,
  metafile: true,
  logLevel: "warning",
});

const outputs = client.metafile.outputs;
const name = (output) => path.relative(path.join(dist, "client"), path.join(root, output));
const outputFor = (predicate) => Object.keys(outputs).find((output) => predicate(outputs[output]));
/** The static imports of a chunk, transitively: what must be preloaded with it. */
function staticImports(output, seen = new Set()) {
  for (const dependency of outputs[output].imports) {
    if (dependency.kind === "import-statement" && !seen.has(dependency.path)) {
      seen.add(dependency.path);
      staticImports(dependency.path, seen);
    }
  }
  return seen;
}

const entry = outputFor((o) => o.entryPoint === "src/entry-client.tsx");
const css = outputFor((o) => o.entryPoint === "src/styles/site.css" && !o.entryPoint.endsWith(".js"));
const staffCss = outputFor((o) => o.entryPoint === "src/styles/staff.css" && !o.entryPoint.endsWith(".js"));
const valetCss = outputFor((o) => o.entryPoint === "src/styles/valet.css" && !o.entryPoint.endsWith(".js"));
if (!entry || !css || !staffCss || !valetCss) throw new Error("the client build lacks its entry or its CSS");
const entryImports = staticImports(entry);

const pages = {};
for (const [page, source] of pageSources()) {
  const chunk = outputFor((o) => o.entryPoint === source);
  if (!chunk) throw new Error(`page "${page}" (${source}) has no chunk of its own`);
  const preload = [chunk, ...staticImports(chunk)].filter((o) => o !== entry && !entryImports.has(o));
  pages[page] = preload.map(name);
}

const manifest = {
  entry: name(entry),
  preload: [...entryImports].map(name),
  css: name(css),
  staffCss: name(staffCss),
  valetCss: name(valetCss),
  pages,
};
writeFileSync(path.join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

// Precompressed beside each client file (name.br, name.gz), at the best levels: the server loads
// them as they are instead of compressing at every start.
const clientDir = path.join(dist, "client");
for (const file of readdirSync(clientDir)) {
  const body = readFileSync(path.join(clientDir, file));
  writeFileSync(
    path.join(clientDir, `${file}.br`),
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
  writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(body, { level: 9 }));
}
console.log(`frontend built: ${Object.keys(pages).length} pages, entry ${manifest.entry}`);
