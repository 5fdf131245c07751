// Keyboard behaviour shared by the search modal and the mobile menu: focus moves into the dialog
// when it opens, Tab stays inside it, Escape closes it, and focus returns to where it was.
import { useEffect, useEffectEvent, useRef, type RefObject } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Wires a dialog element's keyboard behaviour while `open` is true. */
export function useDialog(open: boolean, onClose: () => void): RefObject<HTMLDivElement | null> {
  const dialog = useRef<HTMLDivElement | null>(null);
  // The latest onClose, without reopening the dialog's effect when the caller passes a new function.
  const close = useEffectEvent(onClose);

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusables = () => Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE));
    const preferred = element.querySelector<HTMLElement>("[data-autofocus]") ?? focusables()[0];
    preferred?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close();
        return;
      }
      if (event.key !== "Tab") return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.body.style.overflow = overflow;
      // Give focus back unless something outside the dialog has already taken it on purpose.
      const active = document.activeElement;
      if (opener && (active === null || active === document.body || element.contains(active))) opener.focus();
    };
  }, [open]);

  return dialog;
}
