import { test } from "node:test";
import assert from "node:assert/strict";
import { firstWithRoom, moveChoices, sinceBooking, slotOptionLabel } from "./slots";

const slots = [
  { value: "2026-11-25T19:00", label: "Wed 25 Nov, 19:00-20:00", remaining: 2 },
  { value: "2026-11-25T20:00", label: "Wed 25 Nov, 20:00-21:00", remaining: 0 },
  { value: "2026-11-25T21:00", label: "Wed 25 Nov, 21:00-22:00", remaining: 5 },
];

test("the time since booking reads in minutes, then hours and minutes", () => {
  assert.equal(sinceBooking(0), "Booked just now");
  assert.equal(sinceBooking(12), "Booked 12 min ago");
  assert.equal(sinceBooking(120), "Booked 2 h ago");
  assert.equal(sinceBooking(125), "Booked 2 h 5 min ago");
});

test("a window in the Move list says how many places it has left, or that it is full", () => {
  assert.equal(slotOptionLabel(slots[0]!), "Wed 25 Nov, 19:00-20:00 (2 left)");
  assert.equal(slotOptionLabel(slots[1]!), "Wed 25 Nov, 20:00-21:00 (full)");
});

test("a pickup can be moved to any bookable window but its own, the first with room chosen", () => {
  const choices = moveChoices(slots, "2026-11-25T19:00");
  assert.deepEqual(
    choices.map((option) => option.value),
    ["2026-11-25T20:00", "2026-11-25T21:00"],
  );
  assert.equal(firstWithRoom(choices), "2026-11-25T21:00", "the full window is skipped");
  assert.equal(firstWithRoom([slots[1]!]), "");
});
