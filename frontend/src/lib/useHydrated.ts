// Whether the page has been hydrated: false on the server and in the first client render (so the two
// match), true right after. Controls that need JavaScript render their no-JavaScript form until then.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False while rendering on the server and while hydrating; true once React runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
