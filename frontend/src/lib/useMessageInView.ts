// A message that answers what the person just did (a failed order, a sent message) is brought into
// view and focused, so that on a phone it is not left above the screen with the focus on the page.
import { useEffect, useRef } from "react";

/** A ref for the element showing `message`: whenever `message` changes to something, the element is
 * scrolled to the middle of the screen and focused (give it `tabIndex={-1}`). */
export function useMessageInView<T extends HTMLElement>(message: unknown) {
  const element = useRef<T>(null);
  useEffect(() => {
    const shown = element.current;
    if (!message || !shown) return;
    shown.scrollIntoView({ block: "center" });
    shown.focus({ preventScroll: true });
  }, [message]);
  return element;
}
