// Sending a form as JSON from the hydrated page; the plain form post stays the fallback.

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
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok) return { kind: "ok", body: body as T };
  if (response.status === 422 && body && typeof body.fields === "object" && body.fields !== null) {
    return { kind: "invalid", fields: body.fields as Record<string, string> };
  }
  const message = body && typeof body.error === "string" && response.status < 500 ? body.error : null;
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
