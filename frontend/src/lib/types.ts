// The props the server sends with every page. Their shapes are generated from the Rust views
// (server/src/views, `make generate`) into ./generated; this module only names and combines them.
import type { PageName } from "./generated/PageName";
import type { PagePropsMap } from "./generated/PagePropsMap";
import type { SharedProps } from "./generated/SharedProps";

export type { Business } from "./generated/Business";
export type { FormState } from "./generated/FormState";
export type { PageName } from "./generated/PageName";
export type { PriceItem } from "./generated/PriceItem";
export type { Service } from "./generated/Service";
export type { SharedProps } from "./generated/SharedProps";

/** The props page `Name` receives: the shared ones and its own, as the server's `PageProps` type for
 * that page is generated into `PagePropsMap`. */
export type PageProps<Name extends PageName> = SharedProps & PagePropsMap[Name];

/** The props of the error page (404, 500). */
export type ErrorProps = SharedProps & import("./generated/ErrorProps").ErrorProps;

/** Props of the pricing page. */
export type PricingProps = SharedProps & import("./generated/CatalogueProps").CatalogueProps;

/** The JSON embedded in the document for the client entry. */
export interface PageData {
  page: PageName;
  props: SharedProps & Record<string, unknown>;
}
