import { test } from "node:test";
import assert from "node:assert/strict";
import type { CustomerPayment } from "./generated/CustomerPayment";
import type { PromptView } from "./generated/PromptView";
import type { PaidView } from "./generated/PaidView";
import { askLabel, moneyLine, paysAtDoor, promptComing, promptWords, showsPrompt } from "./payment";

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
  settlement: "unpaid",
  words: "KSh 600 to pay",
  owedBack: 0,
  canKeepCredit: false,
  paid: null,
  payments: [],
  prompt: prompt({}),
  canAsk: true,
  poll: true,
  payAtTill: false,
};

const entry = (extra: Partial<PaidView>): PaidView => ({
  kind: "payment",
  method: "code",
  label: "M-PESA code",
  amount: 1100,
  code: "QKH94M1Z11",
  at: "2026-11-24T16:30:15Z",
  ...extra,
});

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

test("a payment reads as how, how much, its code and when", () => {
  assert.deepEqual(moneyLine(entry({})), {
    what: "M-PESA code",
    amount: "KSh 1,100",
    detail: "code QKH94M1Z11 · Tue, 24 Nov 2026 at 19:30",
  });
  assert.equal(moneyLine(entry({ method: "cash", label: "Cash", code: null })).detail, "Tue, 24 Nov 2026 at 19:30");
});

test("money given back or taken back counts down", () => {
  const refund = entry({ kind: "refund", method: "mpesa-reversal", label: "M-PESA reversal", amount: 300, code: null });
  assert.equal(moneyLine(refund).what, "Refund (M-PESA reversal)");
  assert.equal(moneyLine(refund).amount, "−KSh 300");
  assert.equal(moneyLine({ ...refund, method: "credit", label: "Store credit" }).what, "Kept as store credit");
  const corrected = moneyLine(entry({ amount: -1100 }));
  assert.deepEqual([corrected.what, corrected.amount], ["M-PESA code, corrected", "−KSh 1,100"]);
});

test("a failed prompt shows while it asked for what is still to pay, and the button asks for the rest", () => {
  const partPaid: CustomerPayment = {
    ...unpaid,
    due: 500,
    settlement: "part-paid",
    words: "Paid KSh 1,100 · KSh 500 to pay",
    prompt: prompt({ state: "failed", amount: 1600 }),
    poll: false,
  };
  assert.equal(showsPrompt(partPaid), false, "a prompt for the whole bill, before the part payment");
  assert.equal(askLabel(partPaid), "Pay KSh 500 by M-PESA");
  const failed = { ...partPaid, prompt: prompt({ state: "failed" as const, amount: 500 }) };
  assert.equal(showsPrompt(failed), true);
  assert.equal(askLabel(failed), "Send the M-PESA prompt again");
  assert.equal(showsPrompt({ ...partPaid, prompt: prompt({ state: "checking", amount: 1600 }) }), true);
});

test("on delivery, the valet is paid at the door until something was received", () => {
  const onDelivery = { ...unpaid, method: "pay-delivery" as const, prompt: null };
  assert.equal(paysAtDoor(onDelivery), true);
  assert.equal(paysAtDoor({ ...onDelivery, settlement: "part-paid" }), false);
  assert.equal(paysAtDoor(unpaid), false);
});

test("the prompt's state shows only while something is to pay and a prompt reached the phone", () => {
  assert.equal(showsPrompt(unpaid), true);
  assert.equal(showsPrompt({ ...unpaid, prompt: null }), false);
  assert.equal(showsPrompt({ ...unpaid, prompt: prompt({ state: "paid" }) }), false, "paid shows as a payment");
  assert.equal(showsPrompt({ ...unpaid, due: 0, settlement: "paid" }), false);
  assert.equal(showsPrompt({ ...unpaid, payAtTill: true }), false, "a prompt held by the limits per phone");
});

test("a prompt is said to be coming only for an unpaid Pay Now order whose prompt is not shown", () => {
  assert.equal(promptComing({ ...unpaid, prompt: null }), true, "the confirmation by order ID alone");
  assert.equal(promptComing(unpaid), false, "the prompt's own state shows instead");
  assert.equal(promptComing({ ...unpaid, prompt: null, prompts: false }), false);
  assert.equal(promptComing({ ...unpaid, prompt: null, method: "pay-delivery" }), false);
  assert.equal(promptComing({ ...unpaid, prompt: null, settlement: "part-paid" }), false);
});
