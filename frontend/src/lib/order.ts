// Order arithmetic shown in the order summary. The server prices every line itself from the
// catalogue (server/src/catalogue.rs and the order model); this only mirrors it for the customer's
// eyes, so that the summary says what the confirmation will say.
import { formatKsh } from "./format";
import type { OrderBody } from "./generated/OrderBody";
import type { OrderLine } from "./generated/OrderLine";
import type { Unit } from "./generated/Unit";
import type { PriceItem, Service } from "./types";

/** The largest quantity one order may have, in kg; the server holds the same limit. */
export const MAX_QUANTITY_KG = 500;
/** The most pieces of one item per order; the server holds the same limit. */
export const MAX_PIECES = 50;

/** The services and the price list: what an order can hold. */
export interface Catalogue {
  services: readonly Service[];
  priceList: readonly PriceItem[];
}

/** The prefix of the form fields that hold pieces. */
const PIECE_PREFIX = "piece.";

/** The form field of a price-list item: `piece.shirt`. */
export function pieceField(itemId: string): string {
  return `${PIECE_PREFIX}${itemId}`;
}

/** The most of an item one order may hold: pieces, or kilograms for an item sold by the kg. */
export function maxCount(unit: Unit): number {
  return unit === "kg" ? MAX_QUANTITY_KG : MAX_PIECES;
}

/** Whole numbers only: no signs, fractions or exponents. */
function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/** A quantity typed into the form as whole kilograms, or null if it is not one from 1 up to the maximum. */
export function parseQuantity(text: string): number | null {
  const kg = wholeNumber(text);
  return kg !== null && kg >= 1 && kg <= MAX_QUANTITY_KG ? kg : null;
}

/** A count typed for a price-list item: 0 when blank or 0 (none), the count when allowed, else null. */
export function parseCount(text: string, unit: Unit): number | null {
  if (text.trim() === "") return 0;
  const count = wholeNumber(text);
  return count !== null && count <= maxCount(unit) ? count : null;
}

/** What `kg` kilograms of a service cost: a bundle's price covers its first kilograms. */
export function kgAmount(service: Service, kg: number): number {
  const bundle = service.bundle ?? null;
  return bundle ? bundle.price + service.pricePerKg * Math.max(0, kg - bundle.kg) : service.pricePerKg * kg;
}

/** How a service is priced, as the order form's options read: 'KSh 150 per kg', or the bundle's terms. */
export function pricePhrase(service: Service): string {
  const bundle = service.bundle ?? null;
  if (!bundle) return `${formatKsh(service.pricePerKg)} per kg`;
  return `${formatKsh(bundle.price)} up to ${bundle.kg} kg, then ${formatKsh(service.pricePerKg)} per kg`;
}

/** A line's quantity and how its amount comes about, shown under its label: '2 pieces × KSh 200',
 * '8 kg: KSh 500 for up to 5 kg + KSh 100 × 3 kg', or only '8 kg' when the amount is not a plain
 * product; null for a discount or a surcharge (next-day rush), which are one amount. */
export function lineDetail(line: OrderLine, services: readonly Service[] = []): string | null {
  if (line.kind === "discount" || line.kind === "surcharge") return null;
  const quantity = formatQuantity(line.quantity, line.unit);
  const bundle = line.kind === "kg" ? (services.find((s) => s.id === line.item)?.bundle ?? null) : null;
  if (bundle) {
    const extra = Math.max(0, line.quantity - bundle.kg);
    const first = `${formatKsh(bundle.price)} for up to ${bundle.kg} kg`;
    return `${quantity}: ${extra > 0 ? `${first} + ${formatKsh(line.unitPrice)} × ${extra} kg` : first}`;
  }
  return line.amount === line.unitPrice * line.quantity ? `${quantity} × ${formatKsh(line.unitPrice)}` : quantity;
}

/** '3 kg', '1 piece', '2 pieces'. */
export function formatQuantity(quantity: number, unit: Unit): string {
  if (unit === "kg") return `${quantity} kg`;
  return quantity === 1 ? "1 piece" : `${quantity} pieces`;
}

/** 'KSh 1,500', or '−KSh 200' for a discount. */
export function formatAmount(amount: number): string {
  return amount < 0 ? `−${formatKsh(-amount)}` : formatKsh(amount);
}

/** What the summary shows while the form is filled in: the lines that are right so far, the total
 * once nothing is wrong, and what is wrong in plain words. */
export interface OrderQuote {
  lines: OrderLine[];
  /** Null while something is missing or wrong. */
  total: number | null;
  problems: string[];
}

/** The form's values by field name, as the browser holds them. */
export type FormValues = Readonly<Record<string, string | null | undefined>>;

const NEED_KG = "Enter whole kilograms from 1 to 500";
const NEED_QUANTITY = "Enter the quantity in kg";
const NEED_SERVICE = "Choose a service type for your kg";

/** The main kg line, or what is wrong with it. */
function kgLine(services: readonly Service[], values: FormValues): OrderLine | string | null {
  const service = services.find((s) => s.id === values.serviceType);
  const text = values.quantity ?? "";
  if (!service) return null;
  if (text.trim() === "") return NEED_QUANTITY;
  const kg = parseQuantity(text);
  if (kg === null) return NEED_KG;
  const amount = kgAmount(service, kg);
  return {
    kind: "kg",
    item: service.id,
    label: service.label,
    quantity: kg,
    unit: "kg",
    unitPrice: service.pricePerKg,
    amount,
  };
}

/** The price-list lines (items ordered on their own), or what is wrong with each. */
function pieceLines(priceList: readonly PriceItem[], values: FormValues): (OrderLine | string)[] {
  return priceList
    .filter((item) => (item.service ?? null) === null)
    .flatMap((item): (OrderLine | string)[] => {
      const count = parseCount(values[pieceField(item.id)] ?? "", item.unit);
      if (count === 0) return [];
      if (count === null) {
        return [
          item.unit === "kg" ? `${item.item}: enter whole kg from 1 to 500` : `${item.item}: enter 1 to 50 pieces`,
        ];
      }
      const amount = item.price * count;
      return [
        {
          kind: "piece",
          item: item.id,
          label: item.item,
          quantity: count,
          unit: item.unit,
          unitPrice: item.price,
          amount,
        },
      ];
    });
}

/** The quote for what the form holds, or null while nothing is chosen ('Select a service to see pricing'). */
export function quote(catalogue: Catalogue, values: FormValues): OrderQuote | null {
  const main = kgLine(catalogue.services, values);
  const pieces = pieceLines(catalogue.priceList, values);
  if (main === null && pieces.length === 0) return null;
  // Pieces may be ordered alone (service and kg both empty); kg typed without a service may not.
  const kgTyped = (values.quantity ?? "").trim() !== "";
  const found = main !== null ? [main, ...pieces] : kgTyped ? [NEED_SERVICE, ...pieces] : pieces;
  const lines = found.filter((entry): entry is OrderLine => typeof entry !== "string");
  const problems = found.filter((entry): entry is string => typeof entry === "string");
  const total = problems.length === 0 ? lines.reduce((sum, line) => sum + line.amount, 0) : null;
  return { lines, total, problems };
}

/** The fields to change when a price-list item is added to the form: its count goes up by one, or
 * (General Laundry's two entries) its kg service is chosen. Null for an unknown item. */
export function addition(
  priceList: readonly PriceItem[],
  values: FormValues,
  itemId: string,
): Record<string, string> | null {
  const item = priceList.find((entry) => entry.id === itemId);
  if (!item) return null;
  if (item.service) return { serviceType: item.service };
  const field = pieceField(item.id);
  const count = parseCount(values[field] ?? "", item.unit) ?? 0;
  return { [field]: String(Math.min(maxCount(item.unit), count + 1)) };
}

/** Whether any price-list item has a count (or a wrong one) in the form: its section opens. */
export function anyPieceEntered(values: FormValues): boolean {
  return Object.entries(values).some(
    ([name, value]) => name.startsWith("piece.") && (value ?? "").trim() !== "" && (value ?? "").trim() !== "0",
  );
}

/** What the hydrated order form sends to `POST /api/orders` (`OrderBody`, generated from the Rust
 * struct): its values as typed, for the server to check, with the `piece.<id>` fields gathered into
 * `pieces`; a field the form does not hold now (no window to choose, no pin) is left out. */
export function orderBody(values: FormValues): OrderBody {
  const text = (name: string) => values[name] ?? "";
  const given = (name: string) => values[name] ?? undefined;
  const pieces: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith(PIECE_PREFIX) && typeof value === "string") pieces[name.slice(PIECE_PREFIX.length)] = value;
  }
  return {
    customerName: text("customerName"),
    phone: text("phone"),
    email: given("email"),
    location: text("location"),
    landmark: given("landmark"),
    serviceType: text("serviceType"),
    quantity: text("quantity"),
    paymentMethod: values.paymentMethod === "pay-delivery" ? "pay-delivery" : "pay-now",
    specialInstructions: text("specialInstructions"),
    pickup: given("pickup"),
    // A checked box is sent (as "on"); an unchecked one is not.
    rush: typeof values.rush === "string",
    pinLat: given("pinLat"),
    pinLng: given("pinLng"),
    pieces,
  };
}
