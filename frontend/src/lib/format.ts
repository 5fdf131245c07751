// Formatting shared by the pages.

/** 'KSh 1,500': whole shillings with thousands separators, the same on the server and in the browser. */
export function formatKsh(amount: number): string {
  return `KSh ${formatCount(Math.round(amount))}`;
}

/** A whole number with its thousands grouped: '1,000'. */
export function formatCount(count: number): string {
  return count.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** An anchor id for a price-list item: 'Bed Cover (King)' → 'item-bed-cover-king'. */
export function itemAnchor(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `item-${slug}`;
}

/** A phone number as a tel: link target, digits and a leading + only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/**
 * The WhatsApp chat link for a number in any common notation; with a `message`, the chat opens with
 * it typed in (`?text=`, encoded as a URI component: a space is %20, '&' and '#' do not end it).
 */
export function whatsappHref(number: string, message?: string): string {
  const chat = `https://wa.me/${number.replace(/\D/g, "")}`;
  return message ? `${chat}?text=${encodeURIComponent(message)}` : chat;
}

/**
 * What a general chat link starts with: a booking, with what staff need to take it (WhatsApp gives
 * them the number), for the customer to fill in.
 */
export function bookingMessage(shop: string): string {
  return `Hello ${shop}, I would like to book a laundry pickup.\nMy name: \nLocation: \nPickup day and time: `;
}

/** What the help link starts with where the order is not known yet: a question about an order. */
export function helpMessage(shop: string): string {
  return `Hello ${shop}, I have a question about my order. Order ID or phone number: `;
}

/** What a chat link about an order starts with: its order ID, the customer's words to follow. */
export function orderMessage(shop: string, orderId: string): string {
  return `Hello ${shop}, about my order ${orderId}: `;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/** Nairobi keeps UTC+3 all year. */
const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;

/** An RFC 3339 time shifted to Nairobi, to be read with the getUTC… methods; null when unreadable. */
function inNairobi(iso: string): Date | null {
  const at = new Date(Date.parse(iso) + NAIROBI_OFFSET_MS);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A Nairobi time's '23:30'. */
function clockTime(at: Date): string {
  const twoDigits = (value: number) => String(value).padStart(2, "0");
  return `${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}`;
}

/**
 * An RFC 3339 time as a Nairobi date, 'Tue, 24 Nov 2026'. Written out by hand so that the
 * server's engine and every browser give the same text (no locale data involved).
 */
export function formatDate(iso: string): string {
  const at = inNairobi(iso);
  return at ? `${DAYS[at.getUTCDay()]}, ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}` : "";
}

/** An RFC 3339 time as a Nairobi date and 24-hour time, 'Tue, 24 Nov 2026 at 23:30'; written out as formatDate is. */
export function formatDateTime(iso: string): string {
  const at = inNairobi(iso);
  return at ? `${formatDate(iso)} at ${clockTime(at)}` : "";
}

/** An RFC 3339 time as a short Nairobi day, 'Mon 23 Nov' (no year: for what happens this week). */
export function formatDay(iso: string): string {
  const at = inNairobi(iso);
  return at ? `${DAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}` : "";
}

/** An RFC 3339 time as its Nairobi 24-hour time alone, '19:40' (for a list of one day). */
export function formatClock(iso: string): string {
  const at = inNairobi(iso);
  return at ? clockTime(at) : "";
}

/** An RFC 3339 time as a short Nairobi day and 24-hour time, 'Mon 23 Nov, 19:40'. */
export function formatDayTime(iso: string): string {
  const at = inNairobi(iso);
  return at ? `${formatDay(iso)}, ${clockTime(at)}` : "";
}
