// A table that may be wider than a phone: it scrolls, and can be scrolled from the keyboard.
import type { ReactNode } from "react";

/** The table's scrolling box. */
export function TableScroll({ children }: { children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0}>
      {children}
    </div>
  );
}
