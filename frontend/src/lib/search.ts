// The header search: which price-list items match what the visitor typed.
import type { PriceItem } from "./types";

/**
 * The items whose label contains the query, ignoring case (spec section 4). A blank or
 * whitespace-only query matches nothing.
 */
export function searchPriceItems(items: readonly PriceItem[], query: string): PriceItem[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [];
  return items.filter((entry) => entry.item.toLowerCase().includes(needle));
}
