import { afterEach, mock, test } from "node:test";
import assert from "node:assert/strict";
import {
  ADMIN_TIMEOUT_MS,
  AdminError,
  adminGet,
  adminHref,
  adminPost,
  attemptsText,
  canSendAgain,
  dateOrNA,
  emailStatusLabel,
  emailStatusTone,
  failureOf,
  isMpesaCode,
  listApiPath,
  type MailReport,
  mailSummaryText,
  mailTone,
  normaliseMpesaCode,
  pageCount,
  pageSummary,
  paymentLine,
  replaceItem,
  resendEmail,
  SESSION_ENDED,
  shortOrderId,
  statusTone,
} from "./admin";

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

test("the badge colours follow spec section 4", () => {
  assert.equal(statusTone("pending"), "warning");
  assert.equal(statusTone("picked-up"), "info");
  assert.equal(statusTone("in-progress"), "primary");
  assert.equal(statusTone("ready"), "success");
  assert.equal(statusTone("delivered"), "success");
  assert.equal(statusTone("cancelled"), "secondary");
  assert.equal(statusTone("something-else"), "secondary");
});

test("an order id shows as '#' and its last 8 characters", () => {
  assert.equal(shortOrderId("0f8c2a9e-4b1d-4c7a-9e3f-12ab34cd56ef"), "#34cd56ef");
  assert.equal(shortOrderId("abc"), "#abc");
});

test("the payment line says whether and how an order was paid", () => {
  const unpaid = { paymentStatus: "unpaid", paidVia: null, mpesaCode: null } as const;
  assert.equal(paymentLine({ ...unpaid, paymentMethod: "pay-delivery" }), "Unpaid · Pay on delivery");
  assert.equal(paymentLine({ ...unpaid, paymentMethod: "pay-now" }), "Unpaid · M-PESA till");
  assert.equal(
    paymentLine({ paymentStatus: "paid", paidVia: "mpesa", mpesaCode: "QJK3L5X9TZ", paymentMethod: "pay-now" }),
    "Paid · M-PESA QJK3L5X9TZ",
  );
  assert.equal(paymentLine({ paymentStatus: "paid", paidVia: "cash", mpesaCode: null, paymentMethod: "pay-now" }), "Paid · Cash");
});

test("an order's date reads in Nairobi time, or N/A when missing or unreadable", () => {
  assert.equal(dateOrNA("2026-11-24T21:30:00Z"), "Wed, 25 Nov 2026");
  assert.equal(dateOrNA(null), "N/A");
  assert.equal(dateOrNA(""), "N/A");
  assert.equal(dateOrNA("yesterday"), "N/A");
});

test("the pagination line counts the items shown and the total", () => {
  assert.equal(pageSummary(1, 20, 57), "Showing 1–20 of 57");
  assert.equal(pageSummary(3, 20, 57), "Showing 41–57 of 57");
  assert.equal(pageSummary(1, 20, 5), "Showing 1–5 of 5");
  assert.equal(pageSummary(1, 20, 0), "Showing 0 of 0");
  assert.equal(pageCount(57, 20), 3);
  assert.equal(pageCount(40, 20), 2);
  assert.equal(pageCount(0, 20), 1);
});

test("M-PESA codes are 10 capital letters and digits", () => {
  assert.equal(normaliseMpesaCode(" qjk3 l5x9tz "), "QJK3L5X9TZ");
  assert.ok(isMpesaCode("QJK3L5X9TZ"));
  assert.ok(!isMpesaCode("QJK3L5X9T"));
  assert.ok(!isMpesaCode("QJK3L5X9TZ1"));
  assert.ok(!isMpesaCode("QJK3L5X9T!"));
});

test("dashboard addresses keep the tab, the filter and pages after the first", () => {
  assert.equal(adminHref("messages", { status: null, page: 1 }), "/admin?tab=messages");
  assert.equal(adminHref("orders", { status: "ready", q: " Wanjiru K ", page: 2 }), "/admin?tab=orders&status=ready&q=Wanjiru%20K&page=2");
  assert.equal(listApiPath("orders", { status: null, q: "", page: 1 }), "/api/admin/orders");
  assert.equal(listApiPath("messages", { status: "new", page: 3 }), "/api/admin/messages?status=new&page=3");
});

/** A configured outbox with nothing wrong, to change one thing of in each test. */
const QUIET_MAIL: MailReport = {
  configured: true,
  missing: [],
  waiting: 1,
  failed: 0,
  blocked: 0,
  sent: 12,
  lastError: null,
  lastErrorAt: null,
  problems: [],
};

/** An e-mail that was tried once and failed. */
const FAILED_EMAIL = {
  id: "e1",
  kind: "order-customer",
  label: "Order confirmation (to the customer)",
  to: "njeri@example.com",
  orderId: "0f8c2a9e-4b1d-4c7a-9e3f-12ab34cd56ef",
  status: "failed",
  attempts: 1,
  lastError: "HTTP 400: The template ID is invalid",
  createdAt: "2026-11-24T20:30:00Z",
  nextAttemptAt: "2026-11-24T20:30:00Z",
} as const;

test("the e-mail block is one quiet line while the outbox sends", () => {
  assert.equal(mailTone(QUIET_MAIL), "ok");
  assert.equal(mailSummaryText(QUIET_MAIL), "E-mail: 12 sent, 1 waiting.");
});

test("without configuration the e-mail block names the missing settings", () => {
  const report = { ...QUIET_MAIL, configured: false, missing: ["EMAILJS_SERVICE_ID", "ADMIN_NOTIFY_EMAIL"], sent: 0 };

  assert.equal(mailTone(report), "warning");
  assert.equal(
    mailSummaryText(report),
    "E-mail is not configured: EMAILJS_SERVICE_ID, ADMIN_NOTIFY_EMAIL. Notifications wait in the outbox and are sent once it is.",
  );
});

test("failed or blocked e-mails make the block a problem, with the counts", () => {
  const failed = { ...QUIET_MAIL, failed: 2, problems: [FAILED_EMAIL] };
  const blocked = { ...QUIET_MAIL, blocked: 1, waiting: 0, problems: [{ ...FAILED_EMAIL, status: "blocked" as const }] };

  assert.equal(mailTone(failed), "problem");
  assert.equal(mailSummaryText(failed), "E-mail: 2 failed · 0 blocked · 1 waiting.");
  assert.equal(mailTone(blocked), "problem");
  assert.equal(mailSummaryText(blocked), "E-mail: 0 failed · 1 blocked · 0 waiting.");
  assert.equal(mailTone({ ...failed, configured: false, missing: ["EMAILJS_PRIVATE_KEY"] }), "problem");
});

test("e-mails being retried after an error are a warning, not a quiet line", () => {
  const report = { ...QUIET_MAIL, problems: [{ ...FAILED_EMAIL, status: "pending" as const }] };

  assert.equal(mailTone(report), "warning");
  assert.equal(mailSummaryText(report), "E-mail: 0 failed · 0 blocked · 1 waiting.");
});

test("failed, blocked and retried e-mails can be sent again; sent and untried ones cannot", () => {
  assert.ok(canSendAgain({ status: "failed", lastError: "HTTP 400" }));
  assert.ok(canSendAgain({ status: "blocked", lastError: "HTTP 403" }));
  assert.ok(canSendAgain({ status: "pending", lastError: "timed out" }));
  assert.ok(!canSendAgain({ status: "pending", lastError: null }));
  assert.ok(!canSendAgain({ status: "sent", lastError: null }));
});

test("an outbox e-mail's badge says how it went", () => {
  assert.deepEqual(
    (["failed", "blocked", "pending", "sent"] as const).map((status) => [emailStatusTone(status), emailStatusLabel(status)]),
    [
      ["danger", "Failed"],
      ["warning", "Blocked"],
      ["secondary", "Waiting"],
      ["success", "Sent"],
    ],
  );
  assert.equal(attemptsText(1), "1 attempt");
  assert.equal(attemptsText(0), "0 attempts");
  assert.equal(attemptsText(5), "5 attempts");
});

test("a changed item replaces its old self in place", () => {
  const items = [
    { id: "a", n: 1 },
    { id: "b", n: 2 },
  ];
  assert.deepEqual(replaceItem(items, { id: "b", n: 3 }), [
    { id: "a", n: 1 },
    { id: "b", n: 3 },
  ]);
});

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

test("sending an e-mail again POSTs an empty object with the CSRF token", async () => {
  const calls = answer(200, { email: { ...FAILED_EMAIL, status: "pending" }, mail: QUIET_MAIL });

  const resent = await resendEmail("e1/x", "token-2");

  assert.equal(calls[0]?.url, "/api/admin/mail/e1%2Fx/resend");
  assert.equal(calls[0]?.init.method, "POST");
  assert.equal((calls[0]?.init.headers as Record<string, string>)["X-CSRF-Token"], "token-2");
  assert.equal(calls[0]?.init.body, "{}");
  assert.equal(resent.email.status, "pending");
  assert.deepEqual(resent.mail, QUIET_MAIL);
});

test("an e-mail sent meanwhile answers 404 with the server's text", async () => {
  answer(404, { error: "There is no such e-mail, or it was sent already." });

  const error = await resendEmail("e1", "t").catch((e: unknown) => e);

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
  answer(422, { error: "Please check the M-PESA code.", fields: { mpesaCode: "An M-PESA code has 10 letters and digits." } });

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
