// Every page is wrapped by the shared header and footer (spec section 2).
import type { ReactNode } from "react";
import type { SharedProps } from "../lib/types";
import { Footer } from "./Footer";
import { Header } from "./Header";

/** Header, the page's main content, footer. */
export function Layout({ shared, children }: { shared: SharedProps; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header path={shared.path} business={shared.business} priceList={shared.priceList} />
      <main id="main">{children}</main>
      <Footer year={shared.year} business={shared.business} />
    </>
  );
}
