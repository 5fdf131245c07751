// How staff read where an order came from: online, by text, or taken by a staff member on the
// phone or WhatsApp; and the months of the re-cleans count.
import type { OrderSource } from "../generated/OrderSource";

/** The detail's line: 'Placed online', 'Booked by text', 'Taken by {e-mail} by phone' or 'on WhatsApp'. */
export function originText(source: OrderSource, takenBy: string | null): string {
  const by = takenBy ? ` by ${takenBy}` : "";
  switch (source) {
    case "web":
      return "Placed online";
    case "sms":
      return "Booked by text";
    case "phone":
      return `Taken${by} by phone`;
    case "whatsapp":
      return `Taken${by} on WhatsApp`;
  }
}

/** What staff read for each way an order comes in: 'Online', 'Text', 'Phone', 'WhatsApp'. */
export function sourceLabel(source: OrderSource): string {
  switch (source) {
    case "web":
      return "Online";
    case "sms":
      return "Text";
    case "phone":
      return "Phone";
    case "whatsapp":
      return "WhatsApp";
  }
}

/** The list's small tag for an order that did not come from the site; null for one that did. */
export function sourceTag(source: OrderSource): string | null {
  return source === "web" ? null : sourceLabel(source);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A `YYYY-MM` month as 'Nov' and 'November 2026'; the text as it came when it is not one. */
export function monthNames(month: string): { short: string; long: string } {
  const [year, number] = month.split("-").map(Number);
  const name = MONTHS[(number ?? 0) - 1];
  return name ? { short: name.slice(0, 3), long: `${name} ${year}` } : { short: month, long: month };
}
