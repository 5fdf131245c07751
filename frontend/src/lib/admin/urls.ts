// The staff dashboard's addresses: its own (links, and the address bar) and its lists' API paths.
import type { AdminTab } from "./types";

/** What a list is asked for: its filter and its page. */
export type ListQuery = { status: string | null; payment?: string | null; q?: string; page: number };

/**
 * A query string from named values, leaving out empty ones and page 1. Written by hand because
 * the server's engine has no URLSearchParams and the pagination links are rendered there.
 */
export function queryString(values: Record<string, string | number | null | undefined>): string {
  const parts = Object.entries(values)
    .filter(
      ([name, value]) => value !== null && value !== undefined && value !== "" && !(name === "page" && value === 1),
    )
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** The dashboard's address for a tab and its list's filter and page: links, and the address bar. */
export function adminHref(tab: AdminTab, query: ListQuery): string {
  const payment = query.payment;
  return `/admin${queryString({ tab, status: query.status, payment, q: query.q?.trim(), page: query.page })}`;
}

/** The API address of a list. */
export function listApiPath(tab: AdminTab, query: ListQuery): string {
  const payment = query.payment;
  return `/api/admin/${tab}${queryString({ status: query.status, payment, q: query.q?.trim(), page: query.page })}`;
}

/** The dashboard's address for the day board of `date` (YYYY-MM-DD), or of today when null. */
export function runHref(date: string | null, part: RunPart = {}): string {
  return `/admin${queryString({ tab: "run", date, window: part.window, part: part.part === 1 ? null : part.part })}`;
}

/** Which part of a busy day's board: a window by its start ('19:00') and a part of it from 1; none: the first. */
export interface RunPart {
  window?: string | null;
  part?: number | null;
}

/** The dashboard's address for the money tab with the cash-up of `date`, or of today when null. */
export function moneyHref(date: string | null): string {
  return `/admin${queryString({ tab: "money", date })}`;
}

/** A tab's own address: the day board and the money tab open on today, the lists on their first page. */
export function tabHref(tab: AdminTab): string {
  if (tab === "run") return runHref(null);
  if (tab === "money") return moneyHref(null);
  return adminHref(tab, { status: null, page: 1 });
}
