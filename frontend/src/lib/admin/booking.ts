// The dashboard's "Take a booking" panel: its calls (the form's choices, the caller by their number,
// placing the booking) and the small rules it follows (when a typed number is worth a look-up,
// which fields the caller's last order fills, what the panel says once booked).
import { adminGet, adminPost } from "./api";
import type { BookingForm } from "../generated/BookingForm";
import type { BookingPlaced } from "../generated/BookingPlaced";
import type { CallerDetails } from "../generated/CallerDetails";
import type { CustomerLookup } from "../generated/CustomerLookup";
import type { OrderSource } from "../generated/OrderSource";

export type { BookingForm, BookingPlaced, CustomerLookup };

/** How a booking came in: the two ways staff take one. */
export type BookingSource = Extract<OrderSource, "phone" | "whatsapp">;

/** How long typing must pause before the number is looked up. */
export const LOOKUP_DELAY_MS = 400;

/**
 * The typed number in its normal form (`+2547XXXXXXXX`) when it is a whole Kenyan mobile number
 * (07…, 01…, 254…, +254…, with spaces, dashes, dots or brackets), else null: only then is it
 * looked up. The server has the last word (`PhoneNumber::parse`).
 */
export function callerNumber(typed: string): string | null {
  const trimmed = typed.trim();
  const rest = trimmed.startsWith("+") ? trimmed.slice(1) : trimmed;
  if (!/^[\d\s\-.()]*$/.test(rest)) return null;
  const digits = rest.replace(/\D/g, "");
  const national = /^0[17]\d{8}$/.test(digits)
    ? digits.slice(1)
    : /^254[17]\d{8}$/.test(digits)
      ? digits.slice(3)
      : null;
  if (national === null || (trimmed.startsWith("+") && !digits.startsWith("254"))) return null;
  return `+254${national}`;
}

/**
 * The form's fields a look-up fills from the caller's last order: those still empty, and those an
 * earlier look-up filled (`filled`) and nobody changed since, so that a corrected number replaces
 * the details of the wrong one; what staff typed stays. No caller (`null`): the fields an earlier
 * look-up filled are emptied again.
 */
export function fillsFrom(
  current: Readonly<Record<string, string>>,
  caller: CallerDetails | null,
  filled: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const ours = (name: string) =>
    (current[name] ?? "").trim() === "" || (filled[name] !== undefined && current[name] === filled[name]);
  const known: Record<string, string | null> = {
    customerName: caller?.customerName ?? null,
    email: caller?.email ?? null,
    location: caller?.location ?? null,
    landmark: caller?.landmark ?? null,
  };
  const fills: Record<string, string> = {};
  for (const [name, value] of Object.entries(known)) {
    if (!ours(name)) continue;
    if (value) fills[name] = value;
    else if (filled[name] !== undefined) fills[name] = "";
  }
  if (ours("pinLat") && ours("pinLng")) {
    if (caller && caller.pinLat !== null && caller.pinLng !== null) {
      fills.pinLat = caller.pinLat.toFixed(6);
      fills.pinLng = caller.pinLng.toFixed(6);
    } else if (filled.pinLat !== undefined) {
      fills.pinLat = "";
      fills.pinLng = "";
    }
  }
  return fills;
}

/** The body of `POST /api/admin/orders`: the form's fields, how it came in, and whether the window was agreed. */
export function bookingBody(
  values: Readonly<Record<string, string>>,
  source: BookingSource | null,
  confirmSlot: boolean,
): Record<string, unknown> {
  return { ...values, source, confirmSlot };
}

/** What the panel says once the booking is stored: `Order K7MX2QPD booked for Wed 25 Nov, 19:00-20:00, confirmed.` */
export function bookedText(placed: Pick<BookingPlaced, "id" | "pickup" | "pickupConfirmed">): string {
  if (placed.pickup === null) return `Order ${placed.id} booked.`;
  return `Order ${placed.id} booked for ${placed.pickup}${placed.pickupConfirmed ? ", confirmed" : ""}.`;
}

/** The services and pickup windows of the form, as they are now. */
export function getBookingForm(signal?: AbortSignal): Promise<BookingForm> {
  return adminGet<BookingForm>("/api/admin/booking-form", signal);
}

/** The caller with this number: their last details and earlier orders. */
export function findCaller(phone: string, signal?: AbortSignal): Promise<CustomerLookup> {
  return adminGet<CustomerLookup>(`/api/admin/customers?phone=${encodeURIComponent(phone)}`, signal);
}

/** Places the booking; the same `key` again gives the same order. */
export function placeBooking(body: Record<string, unknown>, key: string, csrf: string): Promise<BookingPlaced> {
  return adminPost<BookingPlaced>("/api/admin/orders", body, csrf, { "Idempotency-Key": key });
}
