// The client entry: reads the page name and props the server embedded, loads that page's chunk and
// hydrates the server's markup with the same tree. If the server could not render (its engine
// failed), the root is empty and the page is rendered here instead.
import { type ComponentType, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./App";
import type { PageData } from "./lib/types";
import { type AnyPageProps, isPageName, type PageModule, routes } from "./routes";

async function start() {
  const dataElement = document.getElementById("page-data");
  const root = document.getElementById("root");
  if (!dataElement || !root) throw new Error("the document has no page data or root element");
  const data = JSON.parse(dataElement.textContent ?? "") as PageData;
  const name = isPageName(data.page) ? data.page : "error";
  const module: PageModule = await routes[name]();
  const Page = module.default as unknown as ComponentType<AnyPageProps>;
  // StrictMode as in entry-server.tsx, so that the two trees match; it only checks in development.
  const tree = (
    <StrictMode>
      <App Page={Page} props={data.props as AnyPageProps} bare={module.bare === true} />
    </StrictMode>
  );
  if (root.firstElementChild) {
    hydrateRoot(root, tree);
  } else {
    createRoot(root).render(tree);
  }
}

void start();
