// "Add to order" from the header search and from /pricing. The link itself goes to
// `/order?add=<id>`, which the server answers with that item in the form, so it works without
// JavaScript; on /order itself the open form takes the item instead, so typed details are kept.
import { useEffect, useEffectEvent } from "react";

/** The event an order form on the page listens to; its detail is the price-list item's id. */
const ADD_TO_ORDER = "laundry:add-to-order";

/** The address that opens the order form with the item added. */
export function addToOrderHref(itemId: string): string {
  return `/order?add=${encodeURIComponent(itemId)}`;
}

/** Offers the item to an order form on this page; true when one took it (then stay on the page). */
export function requestAddToOrder(itemId: string): boolean {
  const event = new CustomEvent<string>(ADD_TO_ORDER, { detail: itemId, cancelable: true });
  return !window.dispatchEvent(event);
}

/** While mounted, takes the items offered by `requestAddToOrder`; `add` says whether it took one. */
export function useAddToOrder(add: (itemId: string) => boolean) {
  const take = useEffectEvent(add);
  useEffect(() => {
    const listener = (event: Event) => {
      if (event instanceof CustomEvent && typeof event.detail === "string" && take(event.detail)) {
        event.preventDefault();
      }
    };
    window.addEventListener(ADD_TO_ORDER, listener);
    return () => window.removeEventListener(ADD_TO_ORDER, listener);
  }, []);
}
