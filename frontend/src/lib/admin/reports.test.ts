import { test } from "node:test";
import assert from "node:assert/strict";
import { chartCount, formatHours } from "./reports";

test("a turnaround under two days reads in hours", () => {
  assert.equal(formatHours(0), "0 h");
  assert.equal(formatHours(30), "30 h");
  assert.equal(formatHours(47), "47 h");
});

test("a turnaround of two days or more reads in days and the hours left", () => {
  assert.equal(formatHours(48), "2 d");
  assert.equal(formatHours(76), "3 d 4 h");
});

test("a week with no turnaround reads as a dash", () => {
  assert.equal(formatHours(null), "–");
});

test("a count on a chart's scale is a whole number", () => {
  assert.equal(chartCount(3), "3");
  assert.equal(chartCount(2.5), "3");
  assert.equal(chartCount(0.4), "0");
});
