import { afterEach, mock, test } from "node:test";
import assert from "node:assert/strict";
import {
  ADMIN_TIMEOUT_MS,
  AdminError,
  adminGet,
  adminPost,
  correctEntry,
  failureOf,
  recordPayment,
  resendMessage,
  SESSION_ENDED,
  splitFailure,
} from "./api";
import { QUIET_OUTBOX, UNDELIVERED_TEXT } from "./fixtures";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Replaces fetch with one answering `status` and `body`, and records what it was asked. */
function answer(status: number, body: unknown): { url: string; init: RequestInit }[] {
  const calls: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  return calls;
}

test("a POST sends JSON with the CSRF token and returns the answer", async () => {
  const calls = answer(200, { ok: true });

  const body = await adminPost("/api/admin/orders/x/status", { status: "ready" }, "token-1");

  assert.deepEqual(body, { ok: true });
  const headers = calls[0]?.init.headers as Record<string, string>;
  assert.equal(calls[0]?.init.method, "POST");
  assert.equal(headers["X-CSRF-Token"], "token-1");
  assert.equal(headers["Content-Type"], "application/json");
  assert.equal(calls[0]?.init.body, '{"status":"ready"}');
});

test("sending a message again POSTs an empty object with the CSRF token", async () => {
  const calls = answer(200, {
    message: { ...UNDELIVERED_TEXT, status: "pending", delivery: null },
    outbox: QUIET_OUTBOX,
  });

  const resent = await resendMessage("e1/x", "token-2");

  assert.equal(calls[0]?.url, "/api/admin/outbox/e1%2Fx/resend");
  assert.equal(calls[0]?.init.method, "POST");
  assert.equal((calls[0]?.init.headers as Record<string, string>)["X-CSRF-Token"], "token-2");
  assert.equal(calls[0]?.init.body, "{}");
  assert.equal(resent.message.status, "pending");
  assert.deepEqual(resent.outbox, QUIET_OUTBOX);
});

test("a message sent meanwhile answers 404 with the server's text", async () => {
  answer(404, { error: "There is no such e-mail, or it was sent already." });

  const error = await resendMessage("e1", "t").catch((e: unknown) => e);

  assert.ok(error instanceof AdminError);
  assert.equal(error.status, 404);
  assert.deepEqual(failureOf(error), { text: "There is no such e-mail, or it was sent already.", sessionEnded: false });
});

test("a 401 is told apart as the end of the session", async () => {
  answer(401, { error: "Please sign in." });

  const error = await adminGet("/api/admin/stats").catch((e: unknown) => e);

  assert.ok(error instanceof AdminError);
  assert.ok(error.sessionEnded);
  assert.deepEqual(failureOf(error), { text: SESSION_ENDED, sessionEnded: true });
});

test("other failures carry the server's error text and field messages", async () => {
  answer(422, {
    error: "Please check the M-PESA code.",
    fields: { mpesaCode: "An M-PESA code has 10 letters and digits." },
  });

  const error = await adminPost("/api/admin/orders/x/payment", { paymentStatus: "paid" }, "t").catch((e: unknown) => e);

  assert.ok(error instanceof AdminError);
  assert.equal(error.status, 422);
  assert.equal(error.message, "Please check the M-PESA code.");
  assert.equal(error.fields.mpesaCode, "An M-PESA code has 10 letters and digits.");
  assert.deepEqual(failureOf(error), { text: "Please check the M-PESA code.", sessionEnded: false });
});

test("a network failure reads as such", async () => {
  globalThis.fetch = (async () => {
    throw new TypeError("fetch failed");
  }) as typeof fetch;

  const error = await adminGet("/api/admin/stats").catch((e: unknown) => e);

  assert.ok(error instanceof AdminError);
  assert.equal(error.status, 0);
  assert.match(error.message, /could not be reached/);
});

test("a call with no answer in 15 seconds is given up", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    globalThis.fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      })) as typeof fetch;

    const pending = adminGet("/api/admin/orders").catch((e: unknown) => e);
    mock.timers.tick(ADMIN_TIMEOUT_MS);
    const error = await pending;

    assert.ok(error instanceof AdminError);
    assert.match(error.message, /took too long/);
  } finally {
    mock.timers.reset();
  }
});

test("a payment taken by hand POSTs its method, amount and code to the order's payment", async () => {
  const calls = answer(200, { order: {}, stats: {} });

  await recordPayment("AB12CD34", { method: "mpesa", amount: 300, mpesaCode: "QJK3L5X9TZ" }, "token-3");

  assert.equal(calls[0]?.url, "/api/admin/orders/AB12CD34/payment");
  assert.equal(calls[0]?.init.body, '{"method":"mpesa","amount":300,"mpesaCode":"QJK3L5X9TZ"}');
});

test("a correction names the entry in the path and sends the reason", async () => {
  const calls = answer(200, { order: {}, stats: {} });

  await correctEntry("AB12CD34", 17, "Typed on the wrong order", "token-4");

  assert.equal(calls[0]?.url, "/api/admin/orders/AB12CD34/entries/17/correct");
  assert.equal(calls[0]?.init.body, '{"reason":"Typed on the wrong order"}');
});

test("a 422 gives each of the form's fields its message; one the form lacks becomes the failure", () => {
  const invalid = new AdminError("Please correct the highlighted fields.", 422, {
    amount: "This order owes KSh 300 back; a refund cannot be more.",
  });

  assert.deepEqual(splitFailure(invalid, ["amount", "method"]), {
    errors: { amount: "This order owes KSh 300 back; a refund cannot be more." },
    failure: null,
  });
  assert.deepEqual(splitFailure(invalid, []), {
    errors: {},
    failure: { text: "This order owes KSh 300 back; a refund cannot be more.", sessionEnded: false },
  });
  assert.deepEqual(splitFailure(new AdminError("This order has nothing to pay.", 409), ["amount"]), {
    errors: {},
    failure: { text: "This order has nothing to pay.", sessionEnded: false },
  });
});
