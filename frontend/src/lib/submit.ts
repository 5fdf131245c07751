// Sending a form as JSON from the hydrated page; the plain form post stays the fallback.
import type { ErrorBody } from "./generated/ErrorBody";

/** What a form submission came to. */
export type Submission<T> =
  | { kind: "ok"; body: T }
  | { kind: "invalid"; fields: Record<string, string> }
  | { kind: "failed"; message: string | null; status: number | null };

/** POSTs `values` as JSON; sorts the answer into ok, invalid fields, or failure. */
export async function postJson<T>(
  url: string,
  values: unknown,
  headers: Record<string, string> = {},
): Promise<Submission<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: JSON.stringify(values),
    });
  } catch {
    return { kind: "failed", message: null, status: null };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { kind: "ok", body: body as T };
  // The server answers an ErrorBody; a proxy in between may answer anything, so it is checked.
  const failure = body as Partial<ErrorBody> | null;
  if (response.status === 422 && failure && typeof failure.fields === "object" && failure.fields !== null) {
    return { kind: "invalid", fields: failure.fields };
  }
  const message = failure && typeof failure.error === "string" && response.status < 500 ? failure.error : null;
  return { kind: "failed", message, status: response.status };
}

/** The named fields of a form, as strings. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === "string") values[key] = value;
  });
  return values;
}

/** A new random key for one order: retries of it are recognised by the server. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
