import { test } from "node:test";
import assert from "node:assert/strict";
import {
  balanceLine,
  dueText,
  entryNote,
  entryWhat,
  entryWho,
  keepsPaymentFilter,
  methodLabel,
  parseAmount,
  received,
  settlementLabel,
  settlementTone,
  stillHeldText,
} from "./money";
import type { LedgerEntryView } from "./types";

/** A ledger entry as the server sends it, to change one thing of in each test. */
const CASH: LedgerEntryView = {
  id: 7,
  kind: "payment",
  method: "cash",
  what: "Cash",
  amount: 1200,
  reference: null,
  note: "",
  by: "otieno@example.com",
  at: "2026-11-25T17:40:00Z",
  corrects: null,
  correctable: true,
};

test("each settlement has its words and its colour", () => {
  assert.deepEqual(
    (["unpaid", "part-paid", "paid", "in-credit", "nothing-to-pay"] as const).map((s) => [
      settlementLabel(s),
      settlementTone(s),
    ]),
    [
      ["Unpaid", "warning"],
      ["Part-paid", "info"],
      ["Paid", "success"],
      ["In credit", "danger"],
      ["Nothing to pay", "secondary"],
    ],
  );
});

test("money received is payments less refunds", () => {
  assert.equal(received({ charged: 0, paid: 1200, refunded: 300 }), 900);
});

test("the ledger's first column says what each entry is", () => {
  assert.equal(entryWhat(CASH), "Payment");
  assert.equal(entryWhat({ ...CASH, kind: "refund", what: "Refund: M-PESA reversal" }), "Refund");
  assert.equal(entryWhat({ kind: "discount", what: "Discount", corrects: null }), "Discount");
  assert.equal(entryWhat({ kind: "charge", what: "Wash & Fold × 3", corrects: null }), "Wash & Fold × 3");
  assert.equal(
    entryWhat({ kind: "adjustment", what: "Bill after weighing: KSh 1,500", corrects: null }),
    "Bill after weighing: KSh 1,500",
  );
  assert.equal(entryWhat({ ...CASH, what: "Correction: Cash", corrects: 7 }), "Correction of a payment");
  assert.equal(entryWhat({ kind: "discount", what: "Correction: discount", corrects: 3 }), "Correction of a discount");
});

test("a note that only repeats the first column is left out", () => {
  assert.equal(entryNote({ kind: "charge", what: "Wash & Fold × 3", note: "Wash & Fold × 3", corrects: null }), "");
  assert.equal(
    entryNote({ kind: "discount", what: "Discount", note: "Stain not removed", corrects: null }),
    "Stain not removed",
  );
  assert.equal(entryNote({ ...CASH, note: "Typed on the wrong order", corrects: 4 }), "Typed on the wrong order");
});

test("methods and authors read as staff say them", () => {
  assert.deepEqual((["prompt", "till", "code", "cash", "credit", "mpesa-reversal"] as const).map(methodLabel), [
    "M-PESA prompt",
    "M-PESA till",
    "M-PESA code",
    "Cash",
    "Store credit",
    "M-PESA reversal",
  ]);
  assert.equal(entryWho("otieno@example.com"), "otieno@example.com");
  assert.equal(entryWho(null), "The site");
});

test("the balance line sums the ledger and ends with what is due either way", () => {
  const partPaid = {
    balance: { charged: 1500, paid: 1200, refunded: 0 },
    settlement: "part-paid",
    toPay: 300,
    owedBack: 0,
  } as const;
  assert.equal(balanceLine(partPaid), "Charged KSh 1,500 · Paid KSh 1,200 · Refunded KSh 0 · KSh 300 to pay");
  const cancelled = {
    balance: { charged: 0, paid: 1200, refunded: 0 },
    settlement: "in-credit",
    toPay: 0,
    owedBack: 1200,
  } as const;
  assert.equal(balanceLine(cancelled), "Charged KSh 0 · Paid KSh 1,200 · Refunded KSh 0 · KSh 1,200 owed back");
  assert.equal(dueText({ settlement: "paid", toPay: 0, owedBack: 0 }), "Settled");
  assert.equal(dueText({ settlement: "nothing-to-pay", toPay: 0, owedBack: 0 }), "Nothing to pay");
});

test("a changed order stays in a list filtered by payment only while it still fits", () => {
  const unpaid = { status: null, payment: "unpaid" } as const;
  const paid = { status: null, payment: "paid" } as const;
  assert.equal(keepsPaymentFilter(unpaid, { toPay: 300, status: "ready" }), true);
  assert.equal(keepsPaymentFilter(unpaid, { toPay: 0, status: "ready" }), false);
  assert.equal(keepsPaymentFilter(paid, { toPay: 0, status: "ready" }), true);
  assert.equal(keepsPaymentFilter(paid, { toPay: 300, status: "ready" }), false);
  assert.equal(keepsPaymentFilter({ status: null, payment: null }, { toPay: 300, status: "ready" }), true);
  assert.equal(keepsPaymentFilter(paid, { toPay: 0, status: "cancelled" }), false, "cancelled: nobody chases it");
  assert.equal(keepsPaymentFilter({ status: "cancelled", payment: "paid" }, { toPay: 0, status: "cancelled" }), true);
});

test("amounts are whole shillings from 1 to a million; separators are allowed", () => {
  assert.deepEqual(parseAmount("1200"), { amount: 1200 });
  assert.deepEqual(parseAmount(" 1,600 "), { amount: 1600 });
  const wrong = { error: "Enter an amount in whole shillings, from 1 to 1000000." };
  assert.deepEqual(parseAmount(""), wrong);
  assert.deepEqual(parseAmount("0"), wrong);
  assert.deepEqual(parseAmount("12.50"), wrong);
  assert.deepEqual(parseAmount("-300"), wrong);
  assert.deepEqual(parseAmount("1000001"), wrong);
});

test("what a cash holder still holds reads plainly, even when they handed in more", () => {
  assert.equal(stillHeldText({ stillHeld: 1200 }), "Still holds KSh 1,200");
  assert.equal(stillHeldText({ stillHeld: 0 }), "All handed in");
  assert.equal(stillHeldText({ stillHeld: -100 }), "Handed in KSh 100 more than collected");
});
