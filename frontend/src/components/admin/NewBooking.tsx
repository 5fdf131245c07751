// "New booking" on the Orders tab: opens and closes the "Take a booking" panel. Shown once the page
// is hydrated: taking a booking needs JavaScript, as every change on the dashboard does.
import { useRef, useState } from "react";
import type { BookingPlaced } from "../../lib/admin/booking";
import type { Business, PriceItem } from "../../lib/types";
import { BookingPanel } from "./BookingPanel";

interface NewBookingProps {
  hydrated: boolean;
  csrf: string;
  priceList: readonly PriceItem[];
  business: Business;
  onPlaced: (placed: BookingPlaced) => void;
  onOpen: (id: string) => void;
  onSessionEnded: () => void;
}

/** The button, and the panel while open. */
export function NewBooking({ hydrated, ...panel }: NewBookingProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (!hydrated) return null;
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="new-booking">
      <button
        ref={button}
        type="button"
        className="button button--primary"
        aria-expanded={open}
        aria-controls={open ? "booking-panel" : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        New booking
      </button>
      {open && <BookingPanel {...panel} onClose={close} />}
    </div>
  );
}
