import assert from "node:assert/strict";
import { test } from "node:test";
import { isGsm, segments, smsLength } from "./sms";

test("a plain text counts 160 in one segment and 153 in each of several, as the server does", () => {
  assert.equal(segments(""), 0);
  assert.equal(segments("a".repeat(160)), 1);
  assert.equal(segments("a".repeat(161)), 2);
  assert.equal(segments("a".repeat(459)), 3);
  assert.equal(segments("a".repeat(460)), 4);
  assert.equal(smsLength("€"), 2);
});

test("one character outside the alphabet makes the text count 70 and 67", () => {
  assert.equal(isGsm("Karibu 😀"), false);
  assert.equal(segments("a".repeat(69) + "’"), 1);
  assert.equal(segments("a".repeat(199) + "😀"), 3);
  assert.equal(segments("a".repeat(200) + "😀"), 4);
});
