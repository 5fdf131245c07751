import { test } from "node:test";
import assert from "node:assert/strict";
import { overdueMinutes, waitingText } from "./waiting";

const placed = "2026-11-24T17:00:00Z";

test("a pending order stands out once 30 minutes have passed, not before", () => {
  assert.equal(overdueMinutes({ status: "pending", createdAt: placed }, "2026-11-24T17:29:59Z"), null);
  assert.equal(overdueMinutes({ status: "pending", createdAt: placed }, "2026-11-24T17:30:00Z"), 30);
  assert.equal(overdueMinutes({ status: "pending", createdAt: placed }, "2026-11-24T17:42:30Z"), 42);
});

test("an order that is no longer pending never stands out", () => {
  assert.equal(overdueMinutes({ status: "picked-up", createdAt: placed }, "2026-11-25T17:00:00Z"), null);
  assert.equal(overdueMinutes({ status: "cancelled", createdAt: placed }, "2026-11-25T17:00:00Z"), null);
});

test("an unreadable time never stands out", () => {
  assert.equal(overdueMinutes({ status: "pending", createdAt: "soon" }, "2026-11-25T17:00:00Z"), null);
});

test("the waiting time reads in minutes, then hours and minutes", () => {
  assert.equal(waitingText(42), "Waiting 42 min");
  assert.equal(waitingText(60), "Waiting 1 h");
  assert.equal(waitingText(125), "Waiting 2 h 5 min");
});
