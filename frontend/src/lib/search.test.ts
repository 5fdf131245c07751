import { test } from "node:test";
import assert from "node:assert/strict";
import { searchPriceItems } from "./search";
import type { PriceItem } from "./types";

const items: PriceItem[] = [
  { id: "shirt", item: "Shirt", price: 200, unit: "piece", service: null },
  { id: "t-shirt", item: "T-shirt", price: 150, unit: "piece", service: null },
  { id: "dress", item: "Dress", price: 200, unit: "piece", service: null },
  { id: "baby-dress", item: "Baby Dress", price: 150, unit: "piece", service: null },
];

test("a query matches labels that contain it, ignoring case", () => {
  assert.deepEqual(
    searchPriceItems(items, "SHIRT").map((i) => i.item),
    ["Shirt", "T-shirt"],
  );
});

test("a query matches in the middle of a label", () => {
  assert.deepEqual(
    searchPriceItems(items, "ress").map((i) => i.item),
    ["Dress", "Baby Dress"],
  );
});

test("surrounding spaces are ignored", () => {
  assert.deepEqual(searchPriceItems(items, "  dress ").length, 2);
});

test("an empty query gives no results", () => {
  assert.deepEqual(searchPriceItems(items, ""), []);
});

test("a whitespace-only query gives no results", () => {
  assert.deepEqual(searchPriceItems(items, "   \t"), []);
});

test("a query with no match gives no results", () => {
  assert.deepEqual(searchPriceItems(items, "zzz"), []);
});
