import { test } from "node:test";
import assert from "node:assert/strict";
import { canPrompt, matchedByText, promptLine, promptStateText, tallyText } from "./mpesa";

test("a prompt's state says where it is, with a failure's reason", () => {
  assert.equal(promptStateText({ state: "waiting", detail: null }), "waiting for the customer's PIN");
  assert.equal(promptStateText({ state: "sending", detail: null }), "sending to the phone");
  assert.equal(promptStateText({ state: "cancelled", detail: "Cancelled on the phone." }), "cancelled on the phone");
  assert.equal(
    promptLine({ state: "failed", detail: "The M-PESA PIN was wrong." }),
    "M-PESA prompt: failed: The M-PESA PIN was wrong.",
  );
  assert.equal(promptLine({ state: "paid", detail: "Paid." }), "M-PESA prompt: paid");
});

test("staff may prompt an order with something to pay when prompts are on", () => {
  const owing = { toPay: 600, status: "ready" } as const;
  assert.equal(canPrompt(owing, true), true);
  assert.equal(canPrompt(owing, false), false);
  assert.equal(canPrompt({ ...owing, toPay: 0 }, true), false, "paid, in credit or nothing to pay");
  assert.equal(canPrompt({ ...owing, status: "cancelled" }, true), false);
});

test("who matched a payment and a day's tally read as staff say them", () => {
  assert.equal(matchedByText("phone-and-amount"), "the phone number and amount");
  assert.equal(matchedByText("wanjiku@example.com"), "wanjiku@example.com");
  assert.equal(matchedByText(null), null);
  assert.equal(tallyText({ count: 1, amount: 600 }), "KSh 600 · 1 payment");
  assert.equal(tallyText({ count: 3, amount: 1800 }), "KSh 1,800 · 3 payments");
});
