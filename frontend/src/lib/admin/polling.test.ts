import { test } from "node:test";
import assert from "node:assert/strict";
import { POLL_INTERVAL_MS, pollInterval } from "./polling";

test("the dashboard polls every 30 seconds unless the test hook says otherwise", () => {
  assert.equal(POLL_INTERVAL_MS, 30_000);
  assert.equal(pollInterval(null), 30_000);
  assert.equal(pollInterval("1000"), 1000);
});

test("a test hook value that is not a usable interval is ignored", () => {
  assert.equal(pollInterval("fast"), 30_000);
  assert.equal(pollInterval("10"), 30_000);
  assert.equal(pollInterval(""), 30_000);
});
