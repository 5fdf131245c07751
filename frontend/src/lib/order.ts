// Order arithmetic shown in the order summary. The server computes the stored total itself from
// the catalogue; this only mirrors it for the customer's eyes.
import type { Service } from "./types";

/** The largest quantity one order may have, in kg; the server holds the same limit. */
export const MAX_QUANTITY_KG = 500;

/** A quantity typed into the form as whole kilograms, or null if it is not one from 1 up to the maximum. */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const kg = Number(trimmed);
  return kg >= 1 && kg <= MAX_QUANTITY_KG ? kg : null;
}

/** What the summary shows once a service and a valid quantity are chosen. */
export interface OrderQuote {
  service: Service;
  quantity: number;
  total: number;
}

/** The quote for a service id and a typed quantity, or null while either is missing or invalid. */
export function quote(services: readonly Service[], serviceId: string, quantityText: string): OrderQuote | null {
  const service = services.find((s) => s.id === serviceId);
  const quantity = parseQuantity(quantityText);
  if (!service || quantity === null) return null;
  return { service, quantity, total: service.pricePerKg * quantity };
}
