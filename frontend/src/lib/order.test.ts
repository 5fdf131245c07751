import { test } from "node:test";
import assert from "node:assert/strict";
import { parseQuantity, quote } from "./order";

const services = [
  { id: "wash-fold", label: "Wash & Fold", pricePerKg: 150 },
  { id: "dry-cleaning", label: "Dry Cleaning", pricePerKg: 500 },
];

test("whole kilograms from 1 are quantities", () => {
  assert.equal(parseQuantity("1"), 1);
  assert.equal(parseQuantity(" 12 "), 12);
});

test("zero, fractions, negatives, words and huge numbers are not", () => {
  for (const text of ["0", "1.5", "-2", "two", "", "501", "1e3"]) {
    assert.equal(parseQuantity(text), null, text);
  }
});

test("the quote is the price per kg times the quantity", () => {
  const result = quote(services, "dry-cleaning", "3");
  assert.equal(result?.total, 1500);
  assert.equal(result?.service.label, "Dry Cleaning");
});

test("no quote without a known service or a valid quantity", () => {
  assert.equal(quote(services, "", "3"), null);
  assert.equal(quote(services, "ironing", "3"), null);
  assert.equal(quote(services, "wash-fold", "0"), null);
});
