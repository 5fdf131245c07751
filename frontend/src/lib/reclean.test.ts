import { test } from "node:test";
import assert from "node:assert/strict";
import type { RecleanLine } from "./generated/RecleanLine";
import { guaranteeWords, lineChoiceLabel } from "./reclean";

test("the guarantee names the days and the last day", () => {
  assert.equal(guaranteeWords(7, "Mon 30 Nov"), "We re-clean it free within 7 days of delivery: until Mon 30 Nov.");
  assert.equal(guaranteeWords(1, "Tue 24 Nov"), "We re-clean it free within 1 day of delivery: until Tue 24 Nov.");
});

test("a line is named with its quantity", () => {
  const line = (kind: "kg" | "piece", label: string, quantity: number): RecleanLine => ({
    position: 0,
    line: { kind, item: "x", label, quantity, unit: kind === "kg" ? "kg" : "piece", unitPrice: 200, amount: 400 },
    recleanedIn: null,
  });
  assert.equal(lineChoiceLabel(line("piece", "Shirt", 2)), "Shirt (2 pieces)");
  assert.equal(lineChoiceLabel(line("piece", "Graduation Gown", 1)), "Graduation Gown (1 piece)");
  assert.equal(lineChoiceLabel(line("kg", "Wash & Fold", 3)), "Wash & Fold (3 kg)");
});
