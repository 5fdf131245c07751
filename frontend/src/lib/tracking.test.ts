import { test } from "node:test";
import assert from "node:assert/strict";
import { badgeTone, progressStep, statusLabel } from "./tracking";

test("each status lights its step of the progress bar", () => {
  assert.equal(progressStep("pending"), 0);
  assert.equal(progressStep("ready"), 3);
  assert.equal(progressStep("delivered"), 4);
  assert.equal(progressStep("cancelled"), -1);
});

test("the badge colours follow the spec", () => {
  assert.equal(badgeTone("in-progress"), "warning");
  assert.equal(badgeTone("delivered"), "success");
  assert.equal(badgeTone("pending"), "primary");
  assert.equal(badgeTone("ready"), "primary");
});

test("badge texts read as the progress steps", () => {
  assert.equal(statusLabel("ready"), "Ready for Delivery");
  assert.equal(statusLabel("pending"), "Pending");
  assert.equal(statusLabel("cancelled"), "Cancelled");
});
