import { test } from "node:test";
import assert from "node:assert/strict";
import type { CustomerPayment } from "./generated/CustomerPayment";
import type { PromptView } from "./generated/PromptView";
import { paidHow, promptWords, showsPrompt } from "./payment";

const prompt = (extra: Partial<PromptView>): PromptView => ({
  state: "waiting",
  amount: 600,
  detail: null,
  receipt: null,
  ...extra,
});

const unpaid: CustomerPayment = {
  method: "pay-now",
  prompts: true,
  due: 600,
  paid: null,
  prompt: prompt({}),
  canAsk: true,
  poll: true,
  payAtTill: false,
};

test("a prompt on the phone asks for the PIN and the amount", () => {
  assert.equal(promptWords(prompt({})).text, "Check your phone: enter your M-PESA PIN to pay KSh 600.");
  assert.equal(promptWords(prompt({ state: "sending" })).tone, "waiting");
});

test("after 90 seconds the page says it is checking, never that it failed", () => {
  const words = promptWords(prompt({ state: "checking" }));
  assert.equal(words.title, "Checking with M-PESA");
  assert.doesNotMatch(words.text, /fail/i);
});

test("paid shows the M-PESA code; failed shows the prompt's words; cancelled says nothing was paid", () => {
  assert.match(promptWords(prompt({ state: "paid", receipt: "QKH94M1Z11" })).text, /M-PESA code: QKH94M1Z11/);
  const failed = promptWords(prompt({ state: "failed", detail: "Not enough money in the M-PESA account." }));
  assert.match(failed.text, /Not enough money in the M-PESA account\./);
  assert.match(promptWords(prompt({ state: "cancelled" })).text, /cancelled on the phone/);
});

test("how an order was paid reads as a receipt line", () => {
  assert.equal(paidHow(unpaid), "Not paid yet");
  const paid = { ...unpaid, paid: { via: "mpesa" as const, code: "QKH94M1Z11", at: "2026-11-24T16:30:15Z" } };
  assert.equal(paidHow(paid), "M-PESA, code QKH94M1Z11, Tue, 24 Nov 2026 at 19:30");
  assert.equal(paidHow({ ...unpaid, paid: { via: "cash", code: null, at: null } }), "Cash");
});

test("the prompt shows only for an unpaid Pay Now order on a site that sends prompts", () => {
  assert.equal(showsPrompt(unpaid), true);
  assert.equal(showsPrompt({ ...unpaid, prompts: false }), false);
  assert.equal(showsPrompt({ ...unpaid, method: "pay-delivery" }), false);
  assert.equal(showsPrompt({ ...unpaid, payAtTill: true }), false, "a prompt held by the limits per phone");
});
