// The server entry: bundled as one classic script for the embedded engine. It defines
// `globalThis.ssrRender(page, propsJson)` as ssr-runtime's bundle contract asks.
import "./polyfills.server";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./App";
import { type AnyPageProps, isPageName, type PageModule, type PageName, routes } from "./routes";

const pages = new Map<PageName, PageModule>();
let loadFailure: unknown = null;

// The lazy page modules are inlined in this bundle; their promises resolve in the engine's job
// queue, which the host drains after evaluating the script and before the first render.
Promise.all(
  (Object.keys(routes) as PageName[]).map(async (name) => {
    pages.set(name, (await routes[name]()) as PageModule);
  }),
).catch((error: unknown) => {
  loadFailure = error;
});

function ssrRender(page: string, propsJson: string): string {
  if (loadFailure !== null) throw loadFailure;
  if (!isPageName(page)) throw new Error(`unknown page "${page}"`);
  const module = pages.get(page);
  if (!module) throw new Error(`page "${page}" is not loaded yet`);
  const props = JSON.parse(propsJson) as AnyPageProps;
  const meta = module.meta(props as never);
  const Page = module.default as unknown as React.ComponentType<AnyPageProps>;
  // StrictMode as in entry-client.tsx, so that the two trees match.
  const html = renderToString(
    <StrictMode>
      <App Page={Page} props={props} bare={module.bare === true} />
    </StrictMode>,
  );
  return JSON.stringify({ html, title: meta.title, description: meta.description, status: meta.status ?? 200 });
}

(globalThis as Record<string, unknown>).ssrRender = ssrRender;
