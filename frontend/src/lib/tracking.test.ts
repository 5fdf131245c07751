import { test } from "node:test";
import assert from "node:assert/strict";
import type { OrderStatus } from "./generated/OrderStatus";
import type { TrackedOrder } from "./generated/TrackedOrder";
import { badgeTone, progressStep, statusLabel, timeline } from "./tracking";

const STATUSES: OrderStatus[] = ["pending", "picked-up", "in-progress", "ready", "delivered"];

/** An order as the server sends it: `reached` gives each step's time (UTC), `false` a skipped step. */
function order(status: OrderStatus, reached: (string | [string, false])[], extra: Partial<TrackedOrder> = {}) {
  const tracked: TrackedOrder = {
    id: "K7MX2QPD",
    customer: "Amina",
    phone: "+254 7** *** 678",
    service: "Wash & Fold",
    quantity: 5,
    total: 750,
    lines: [
      { kind: "kg", item: "wash-fold", label: "Wash & Fold", quantity: 5, unit: "kg", unitPrice: 150, amount: 750 },
    ],
    status,
    placedAt: "2026-11-23T13:05:00Z",
    steps: STATUSES.map((step, index) => {
      const time = reached[index];
      if (time === undefined) return { status: step, reached: null };
      return typeof time === "string"
        ? { status: step, reached: { at: time, exact: true } }
        : { status: step, reached: { at: time[0], exact: false } };
    }),
    estimatedCompletion: null,
    cancelledAt: null,
    estimate: null,
    visit: null,
    ...extra,
  };
  return tracked;
}

/** The timeline as 'term: value' lines. */
function lines(tracked: TrackedOrder): string[] {
  return timeline(tracked).map((row) => `${row.term}: ${row.value}`);
}

test("each status stands for its step of the progress bar", () => {
  assert.equal(progressStep("pending"), 0);
  assert.equal(progressStep("ready"), 3);
  assert.equal(progressStep("delivered"), 4);
  assert.equal(progressStep("cancelled"), -1);
});

test("the badge colours follow the spec, and a cancelled order's is red", () => {
  assert.equal(badgeTone("in-progress"), "warning");
  assert.equal(badgeTone("delivered"), "success");
  assert.equal(badgeTone("pending"), "primary");
  assert.equal(badgeTone("ready"), "primary");
  assert.equal(badgeTone("picked-up"), "primary");
  assert.equal(badgeTone("cancelled"), "danger");
});

test("badge texts read as the progress steps", () => {
  assert.equal(statusLabel("ready"), "Ready for Delivery");
  assert.equal(statusLabel("pending"), "Pending");
  assert.equal(statusLabel("cancelled"), "Cancelled");
});

test("a new order awaits its pickup and counts the turnaround from it", () => {
  assert.deepEqual(lines(order("pending", ["2026-11-23T13:05:00Z"])), [
    "Order placed: Mon 23 Nov, 16:05",
    "Pickup Date: Awaiting pickup",
    "Estimated Completion: 3-4 days after pickup",
    "Delivery Date: Not yet delivered",
  ]);
});

test("a picked-up order shows its pickup in Nairobi time and the estimated day", () => {
  const tracked = order("in-progress", ["2026-11-23T13:05:00Z", "2026-11-23T16:40:00Z", "2026-11-24T06:00:00Z"], {
    estimatedCompletion: "2026-11-26T16:40:00Z",
  });

  assert.deepEqual(lines(tracked).slice(1), [
    "Pickup Date: Mon 23 Nov, 19:40",
    "Estimated Completion: Thu 26 Nov",
    "Delivery Date: Not yet delivered",
  ]);
});

test("a delivered order shows when it was ready and delivered", () => {
  const tracked = order("delivered", [
    "2026-11-23T13:05:00Z",
    "2026-11-23T16:40:00Z",
    "2026-11-24T06:00:00Z",
    "2026-11-26T09:15:00Z",
    "2026-11-26T17:30:00Z",
  ]);

  assert.deepEqual(lines(tracked).slice(2), ["Completed: Thu 26 Nov, 12:15", "Delivery Date: Thu 26 Nov, 20:30"]);
});

test("steps staff skipped say they were done by the next step's time", () => {
  const ready = "2026-11-25T08:00:00Z";
  const tracked = order("ready", ["2026-11-23T13:05:00Z", [ready, false], [ready, false], ready]);

  assert.deepEqual(lines(tracked).slice(1, 3), [
    "Pickup Date: Picked up by Wed 25 Nov, 11:00",
    "Completed: Wed 25 Nov, 11:00",
  ]);
});

test("a cancelled order says when it was cancelled and promises nothing more", () => {
  const before = order("cancelled", ["2026-11-23T13:05:00Z"], { cancelledAt: "2026-11-23T14:00:00Z" });
  const after = order("cancelled", ["2026-11-23T13:05:00Z", "2026-11-23T16:40:00Z"], {
    cancelledAt: "2026-11-24T07:00:00Z",
  });

  assert.deepEqual(lines(before), [
    "Order placed: Mon 23 Nov, 16:05",
    "Pickup Date: Not picked up",
    "Cancelled: Mon 23 Nov, 17:00",
  ]);
  assert.deepEqual(lines(after).slice(1), ["Pickup Date: Mon 23 Nov, 19:40", "Cancelled: Tue 24 Nov, 10:00"]);
});
