// Disabling a focused control while it saves drops the browser's focus to the page; this gives the
// focus back once the control is enabled again, so a keyboard user keeps their place.
import { type RefObject, useEffect, useRef } from "react";

/** A ref for the control, and `remember()` to call in its handler just before it is disabled. */
export function useFocusReturn<T extends HTMLElement>(
  busy: boolean,
): { ref: RefObject<T | null>; remember: () => void } {
  const ref = useRef<T | null>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    if (busy || !hadFocus.current) return;
    hadFocus.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus();
  }, [busy]);

  return {
    ref,
    remember: () => {
      hadFocus.current = ref.current !== null && document.activeElement === ref.current;
    },
  };
}
