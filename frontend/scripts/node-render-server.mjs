// A Node peer for the load bench (server/benches/load.rs): a plain node:http server that renders
// pages per request with the SAME server bundle the Rust server runs in its embedded engine
// (dist/server/server.js), wraps them in the same document shell as templates/document.html, and
// answers identity or brotli (node:zlib, compressed per request) as Accept-Encoding asks. No npm
// packages: it stands for "the same React pages served by Node", to compare requests per second.
//
//   node scripts/node-render-server.mjs --pages PAGES.json [--port 18090] [--dist dist]
//                                       [--brotli-quality 5] [--workers 1]
//
// PAGES.json maps a path to what to render there, as the bench took it from the Rust server's own
// answer (its `<script id="page-data">`, its `<script type="application/ld+json">` and the CSS it
// inlines; without `css`, the manifest's site stylesheet is inlined):
//   { "/admin/login": { "page": "login", "props": {…}, "structuredData": "{…}", "css": "…" }, … }
// A page whose props have a `csrf` field gets a fresh token per request, also set as the
// `laundry_login_csrf` cookie, as the Rust login page does. The query string is ignored.
// `--workers N` forks N processes with node:cluster (one per core, like the Rust server's workers).
// Prints one line "ready on http://127.0.0.1:PORT …" when every process is listening.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { brotliCompressSync, constants } from "node:zlib";

// Defined before the top-level await below: pages are rendered while it waits.
const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const options = parseArguments(process.argv.slice(2));

if (cluster.isPrimary && options.workers > 1) {
  let listening = 0;
  for (let n = 0; n < options.workers; n += 1) {
    const worker = cluster.fork();
    worker.on("message", (message) => {
      if (message === "listening" && (listening += 1) === options.workers) announce();
    });
    worker.on("exit", (code) => {
      console.error(`node-render-server: a worker exited (${code})`);
      process.exit(1);
    });
  }
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
} else {
  await serve();
}

async function serve() {
  const dist = options.dist;
  const manifest = JSON.parse(readFileSync(path.join(dist, "manifest.json"), "utf8"));
  const siteCss = readFileSync(path.join(dist, "client", manifest.css), "utf8");
  const pages = JSON.parse(readFileSync(options.pages, "utf8"));

  // The bundle is a classic script (an IIFE) that sets globalThis.ssrRender; it runs here in Node's
  // own global scope, so Node's performance, timers and queueMicrotask stand in for the polyfills.
  vm.runInThisContext(readFileSync(path.join(dist, "server", "server.js"), "utf8"), {
    filename: "server.js",
  });
  // Its lazy page modules resolve in the job queue, as the Rust host drains it before rendering.
  await new Promise((resolve) => setImmediate(resolve));
  const ssrRender = globalThis.ssrRender;
  if (typeof ssrRender !== "function") throw new Error("the server bundle did not define ssrRender");

  const routes = new Map(
    Object.entries(pages).map(([route, { page, props, structuredData, css }]) => [
      route,
      {
        page,
        props,
        structuredData,
        css: css ?? siteCss,
        preloads: [...manifest.preload, ...(manifest.pages[page] ?? [])],
      },
    ]),
  );
  const render = (route) => {
    const csrf = "csrf" in route.props ? randomBytes(32).toString("hex") : null;
    const props = csrf === null ? route.props : { ...route.props, csrf };
    const rendered = JSON.parse(ssrRender(route.page, JSON.stringify(props)));
    const html = documentShell({
      title: rendered.title,
      description: rendered.description,
      siteName: props.business?.name ?? "",
      structuredData: route.structuredData,
      css: route.css,
      html: rendered.html,
      pageData: scriptSafeJson({ page: route.page, props }),
      entry: manifest.entry,
      preloads: route.preloads,
    });
    return { status: rendered.status, html, csrf };
  };
  for (const route of routes.values()) render(route); // fails now rather than under load

  const server = http.createServer((request, response) => {
    const pathname = (request.url ?? "/").split("?")[0];
    if (pathname === "/healthz") {
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    const route = routes.get(pathname);
    if (!route) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    let page;
    try {
      page = render(route);
    } catch (error) {
      console.error(error);
      response.writeHead(500, { "content-type": "text/plain" }).end("render failed");
      return;
    }
    const identity = Buffer.from(page.html);
    const brotli = acceptsBrotli(request.headers["accept-encoding"]);
    const body = brotli
      ? brotliCompressSync(identity, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality,
            [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        })
      : identity;
    const headers = {
      "content-type": "text/html; charset=utf-8",
      "content-length": body.length,
      "cache-control": "no-store, private",
      "x-robots-tag": "noindex, nofollow",
      vary: "Accept-Encoding",
    };
    if (brotli) headers["content-encoding"] = "br";
    if (page.csrf !== null) {
      headers["set-cookie"] =
        `laundry_login_csrf=${page.csrf}; HttpOnly; SameSite=Strict; Path=/admin/login; Max-Age=3600`;
    }
    response.writeHead(page.status, headers).end(body);
  });
  server.listen(options.port, "127.0.0.1", () => {
    if (cluster.isWorker) process.send?.("listening");
    else announce();
  });
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
}

function announce() {
  const processes = `${options.workers} process${options.workers === 1 ? "" : "es"}`;
  console.log(
    `ready on http://127.0.0.1:${options.port} (${processes}, brotli quality ${options.brotliQuality}, Node ${process.version})`,
  );
}

/** templates/document.html, as askama fills it for a page kept out of search results. */
function documentShell(d) {
  const preloads = d.preloads.map((module) => `\n<link rel="modulepreload" href="/assets/${module}">`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(d.title)}</title>
<meta name="description" content="${escapeHtml(d.description)}">
<meta name="robots" content="noindex">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${escapeHtml(d.siteName)}">
<meta property="og:title" content="${escapeHtml(d.title)}">
<meta property="og:description" content="${escapeHtml(d.description)}">
<meta property="og:locale" content="en_KE">
<meta name="twitter:card" content="summary">
<meta name="theme-color" content="#0b5cad">
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%230b5cad'/%3E%3Cpath d='M9 11h14l-1.5 13h-11z' fill='%23fff'/%3E%3Ccircle cx='16' cy='8' r='3' fill='%237fe0b5'/%3E%3C/svg%3E">
<style>${d.css}</style>
<script type="module" src="/assets/${d.entry}"></script>${preloads}
</head>
<body>
<div id="root">${d.html}</div>
<script id="page-data" type="application/json">${d.pageData}</script>
<script type="application/ld+json">${d.structuredData}</script>
</body>
</html>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** JSON that can sit inside `<script type="application/json">`, as the Rust server writes it. */
function scriptSafeJson(value) {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Whether Accept-Encoding allows brotli (named or `*`, without `q=0`), as the Rust server reads it. */
function acceptsBrotli(header) {
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const refused = parameters.some((p) => p.startsWith("q=") && Number(p.slice(2)) === 0);
    return (name.toLowerCase() === "br" || name === "*") && !refused;
  });
}

function parseArguments(args) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const parsed = { port: 18090, dist: path.join(root, "dist"), pages: "", brotliQuality: 5, workers: 1 };
  for (let n = 0; n < args.length; n += 2) {
    const [flag, value] = [args[n], args[n + 1]];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === "--port") parsed.port = Number(value);
    else if (flag === "--dist") parsed.dist = path.resolve(value);
    else if (flag === "--pages") parsed.pages = path.resolve(value);
    else if (flag === "--brotli-quality") parsed.brotliQuality = Number(value);
    else if (flag === "--workers") parsed.workers = Number(value);
    else usage(`unknown option ${flag}`);
  }
  if (!parsed.pages) usage("--pages is required");
  if (!(parsed.brotliQuality >= 0 && parsed.brotliQuality <= 11)) usage("--brotli-quality is 0 to 11");
  if (!(Number.isInteger(parsed.workers) && parsed.workers >= 1)) usage("--workers is a whole number from 1");
  return parsed;
}

function usage(problem) {
  console.error(`node-render-server: ${problem}
usage: node scripts/node-render-server.mjs --pages PAGES.json [--port 18090] [--dist dist] [--brotli-quality 5] [--workers 1]`);
  process.exit(2);
}
