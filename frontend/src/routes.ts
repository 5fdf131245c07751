// The one route table, imported by both the server entry and the client entry. Each page is its own
// lazily loaded module: the client loads only the current page's chunk, the server preloads them all.
import type { ComponentType } from "react";
import type { PageName, PageProps, SharedProps } from "./lib/types";

/** What a page tells the document shell. */
export interface PageMeta {
  title: string;
  description: string;
  /** The HTTP status, when it is not 200. */
  status?: number;
}

/** The shape of a page module: the component and its metadata, both taking the props `P` (written
 * as properties, not methods, so that `tsc` checks their parameters strictly). */
export interface PageModule<P = never> {
  default: ComponentType<P>;
  meta: (props: P) => PageMeta;
  /** True for a page shown without the site's header and footer (the valet page: small, for a phone). */
  bare?: boolean;
}

/** Page name → loader. The server names a page by these keys. `build.mjs` reads this table with
 * TypeScript's parser to know which chunk is which page. Each page's module must take that page's
 * props (`PageProps`, generated from the Rust type the server renders it with): a component or
 * `meta` that expects other props fails `tsc`. */
export const routes = {
  home: () => import("./pages/HomePage"),
  pricing: () => import("./pages/PricingPage"),
  order: () => import("./pages/OrderPage"),
  tracking: () => import("./pages/TrackingPage"),
  contact: () => import("./pages/ContactPage"),
  privacy: () => import("./pages/PrivacyPage"),
  confirmation: () => import("./pages/ConfirmationPage"),
  login: () => import("./pages/LoginPage"),
  admin: () => import("./pages/AdminPage"),
  valet: () => import("./pages/ValetPage"),
  error: () => import("./pages/ErrorPage"),
  orderstatus: () => import("./pages/OrderStatusPage"),
  receipt: () => import("./pages/ReceiptPage"),
  summary: () => import("./pages/SummaryPage"),
  garments: () => import("./pages/GarmentsPage"),
  tags: () => import("./pages/TagsPage"),
  floor: () => import("./pages/FloorPage"),
} satisfies { [Name in PageName]: () => Promise<PageModule<PageProps<Name>>> };

/** The name of a page: the server's `Page` enum, generated. The table above must name exactly these
 * (`satisfies` refuses a missing page and an extra one). */
export type { PageName };

/** Whether `name` is a page of the route table. */
export function isPageName(name: string): name is PageName {
  return Object.hasOwn(routes, name);
}

/** Props as the page component receives them. */
export type AnyPageProps = SharedProps & Record<string, unknown>;
