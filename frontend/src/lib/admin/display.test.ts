import { test } from "node:test";
import assert from "node:assert/strict";
import {
  attemptsText,
  canSendAgain,
  channelSummaryText,
  channelTone,
  dateOrNA,
  dateTimeOrNA,
  deliveryBadge,
  isMpesaCode,
  kgAndItems,
  lineAmount,
  lineQuantity,
  normaliseMpesaCode,
  outboxStatusLabel,
  outboxStatusTone,
  outboxTone,
  pageCount,
  pageSummary,
  recipientText,
  replaceItem,
  shortOrderId,
  statusTone,
} from "./display";
import { FAILED_EMAIL, QUIET_MAIL, QUIET_OUTBOX, QUIET_SMS, UNDELIVERED_TEXT } from "./fixtures";

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
  assert.equal(pageSummary(1, 20, 1000, true), "Showing 1–20 of more than 1,000");
  assert.equal(pageSummary(51, 20, 2000, true), "Showing 1,001–1,020 of more than 2,000");
  assert.equal(pageSummary(60, 20, 1200), "Showing 1,181–1,200 of 1,200");
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

test("the outbox block is one quiet line a channel while the outbox sends", () => {
  assert.equal(outboxTone(QUIET_OUTBOX), "ok");
  assert.equal(channelSummaryText(QUIET_MAIL, []), "E-mail: 12 sent, 1 waiting.");
  assert.equal(channelSummaryText(QUIET_SMS, []), "SMS: 30 sent, 0 waiting.");
  assert.equal(
    channelSummaryText({ ...QUIET_SMS, skipped: 2 }, []),
    "SMS: 30 sent, 0 waiting, 2 not sent (opted out, switched off or over a limit).",
  );
});

test("without configuration each channel names its missing settings", () => {
  const mail = { ...QUIET_MAIL, configured: false, missing: ["EMAILJS_SERVICE_ID", "ADMIN_NOTIFY_EMAIL"], sent: 0 };
  const sms = { ...QUIET_SMS, configured: false, missing: ["AT_USERNAME", "AT_API_KEY"], sent: 0 };

  assert.equal(channelTone(mail, []), "warning");
  assert.equal(
    channelSummaryText(mail, []),
    "E-mail is not configured: EMAILJS_SERVICE_ID, ADMIN_NOTIFY_EMAIL. Notifications wait in the outbox and are sent once it is.",
  );
  assert.equal(
    channelSummaryText(sms, []),
    "SMS is not configured: AT_USERNAME, AT_API_KEY. Texts wait in the outbox and are sent once it is.",
  );
  assert.equal(outboxTone({ ...QUIET_OUTBOX, sms }), "warning", "one channel unconfigured is enough");
});

test("failed or blocked messages make the block a problem, with the counts", () => {
  const failed = { ...QUIET_MAIL, failed: 2 };
  const blocked = { ...QUIET_MAIL, blocked: 1, waiting: 0 };
  const problems = [FAILED_EMAIL];

  assert.equal(channelTone(failed, problems), "problem");
  assert.equal(channelSummaryText(failed, problems), "E-mail: 2 failed · 0 blocked · 1 waiting.");
  assert.equal(channelTone(blocked, problems), "problem");
  assert.equal(channelSummaryText(blocked, problems), "E-mail: 0 failed · 1 blocked · 0 waiting.");
  assert.equal(channelTone({ ...failed, configured: false, missing: ["EMAILJS_PRIVATE_KEY"] }, problems), "problem");
  assert.equal(outboxTone({ ...QUIET_OUTBOX, email: failed, problems }), "problem");
});

test("a text reported not delivered makes the block a problem and is counted apart", () => {
  const sms = { ...QUIET_SMS, undelivered: 1 };
  const outbox = { ...QUIET_OUTBOX, sms, problems: [UNDELIVERED_TEXT] };

  assert.equal(outboxTone(outbox), "problem");
  assert.equal(channelSummaryText(sms, outbox.problems), "SMS: 0 failed · 0 blocked · 1 not delivered · 0 waiting.");
  assert.equal(channelTone(QUIET_MAIL, outbox.problems), "ok", "the text is not the e-mails' problem");
});

test("messages being retried after an error are a warning, not a quiet line", () => {
  const problems = [{ ...FAILED_EMAIL, status: "pending" as const }];

  assert.equal(channelTone(QUIET_MAIL, problems), "warning");
  assert.equal(channelSummaryText(QUIET_MAIL, problems), "E-mail: 0 failed · 0 blocked · 1 waiting.");
  assert.equal(channelTone(QUIET_SMS, problems), "ok");
});

test("failed, blocked, retried and undelivered messages can be sent again; sent and untried ones cannot", () => {
  assert.ok(canSendAgain({ status: "failed", lastError: "HTTP 400", delivery: null }));
  assert.ok(canSendAgain({ status: "blocked", lastError: "HTTP 403", delivery: null }));
  assert.ok(canSendAgain({ status: "pending", lastError: "timed out", delivery: null }));
  assert.ok(canSendAgain({ status: "sent", lastError: null, delivery: "failed" }));
  assert.ok(!canSendAgain({ status: "pending", lastError: null, delivery: null }));
  assert.ok(!canSendAgain({ status: "sent", lastError: null, delivery: null }));
  assert.ok(!canSendAgain({ status: "sent", lastError: null, delivery: "delivered" }));
  const held = "Not sent: over the limit of 8 texts an hour to one phone (LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR)";
  assert.ok(canSendAgain({ status: "skipped", lastError: held, delivery: null }), "staff may send a held text");
  assert.ok(!canSendAgain({ status: "skipped", lastError: "the customer opted out of texts", delivery: null }));
});

test("the owner's budget warning colours the outbox block", () => {
  const budget = { sent: 412, budget: 500, usedUp: false, message: "Texts today: 412 of 500." };
  assert.equal(outboxTone({ ...QUIET_OUTBOX, textBudget: budget }), "warning");
  assert.equal(outboxTone({ ...QUIET_OUTBOX, textBudget: { ...budget, sent: 500, usedUp: true } }), "problem");
});

test("an outbox message's badges say how it went, and to whom", () => {
  assert.deepEqual(
    (["failed", "blocked", "pending", "sent", "skipped"] as const).map((status) => [
      outboxStatusTone(status),
      outboxStatusLabel(status),
    ]),
    [
      ["danger", "Failed"],
      ["warning", "Blocked"],
      ["secondary", "Waiting"],
      ["success", "Sent"],
      ["secondary", "Not sent"],
    ],
  );
  assert.deepEqual(deliveryBadge("failed"), { tone: "danger", label: "Not delivered" });
  assert.deepEqual(deliveryBadge("delivered"), { tone: "success", label: "Delivered" });
  assert.deepEqual(deliveryBadge("waiting"), { tone: "info", label: "On its way" });
  assert.equal(recipientText(UNDELIVERED_TEXT), "Text to +254712345678");
  assert.equal(recipientText(FAILED_EMAIL), "E-mail to njeri@example.com");
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

test("an order's time reads in Nairobi, with the time of day", () => {
  assert.equal(dateTimeOrNA("2026-11-24T20:30:00Z"), "Tue, 24 Nov 2026 at 23:30");
  assert.equal(dateTimeOrNA(null), "N/A");
});

test("a line's quantity reads in kg or pieces; money off and a surcharge have none", () => {
  assert.equal(lineQuantity({ kind: "kg", quantity: 3, unit: "kg" }), "3 kg");
  assert.equal(lineQuantity({ kind: "piece", quantity: 1, unit: "piece" }), "1 piece");
  assert.equal(lineQuantity({ kind: "piece", quantity: 2, unit: "piece" }), "2 pieces");
  assert.equal(lineQuantity({ kind: "discount", quantity: 1, unit: "piece" }), "");
  assert.equal(lineQuantity({ kind: "surcharge", quantity: 1, unit: "piece" }), "");
  assert.equal(lineAmount(1400), "KSh 1,400");
  assert.equal(lineAmount(-200), "− KSh 200");
});

test("the table says the kg and how many items by the piece", () => {
  const line = (kind: "kg" | "piece") => ({
    kind,
    item: "x",
    label: "X",
    quantity: 1,
    unit: "kg" as const,
    unitPrice: 1,
    amount: 1,
  });
  assert.equal(kgAndItems({ quantity: 3, lines: [line("kg")] }), "3 kg");
  assert.equal(kgAndItems({ quantity: 3, lines: [line("kg"), line("piece"), line("piece")] }), "3 kg + 2 items");
  assert.equal(kgAndItems({ quantity: 0, lines: [line("piece")] }), "1 item");
});
