import { test } from "node:test";
import assert from "node:assert/strict";
import { handOverText, lineText, sentBack, stateText } from "./valet";

test("bill lines read as kg, pieces or their label", () => {
  const line = { item: "x", unitPrice: 150, amount: 750 };
  assert.equal(lineText({ ...line, kind: "kg", label: "Wash & Fold", quantity: 5, unit: "kg" }), "5 kg Wash & Fold");
  assert.equal(lineText({ ...line, kind: "piece", label: "Shirt", quantity: 2, unit: "piece" }), "2 × Shirt");
  assert.equal(
    lineText({ ...line, kind: "surcharge", label: "Next-day rush", quantity: 1, unit: "piece" }),
    "Next-day rush",
  );
});

test("a done stop says what was done and when", () => {
  assert.equal(stateText({ kind: "pickup", state: "done", doneAt: "19:42", missedReason: null }), "Picked up at 19:42");
  assert.equal(stateText({ kind: "delivery", state: "on-the-way", doneAt: null, missedReason: null }), "On the way");
});

test("a missed stop says why", () => {
  assert.equal(
    stateText({ kind: "pickup", state: "missed", doneAt: null, missedReason: "Not home" }),
    "Missed: Not home",
  );
  assert.equal(stateText({ kind: "delivery", state: "missed", doneAt: null, missedReason: null }), "Missed");
});

test("a form sent back belongs to one stop and one action", () => {
  const error = {
    stopId: "a",
    action: "picked-up",
    errors: { kg: "Wrong" },
    message: null,
    values: { kg: "0" },
  } as const;
  assert.equal(sentBack(error, "a", "picked-up").errors.kg, "Wrong");
  assert.deepEqual(sentBack(error, "b", "picked-up").errors, {});
  assert.deepEqual(sentBack(error, "a", "delivered").values, {});
});

test("the count to hand over says item and bag for one, items and bags for more", () => {
  assert.equal(handOverText(2, 1), "Hand over 2 items in 1 bag");
  assert.equal(handOverText(1, 2), "Hand over 1 item in 2 bags");
  assert.equal(handOverText(3, null), "Hand over 3 items");
});
