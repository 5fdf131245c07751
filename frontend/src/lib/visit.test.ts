import { test } from "node:test";
import assert from "node:assert/strict";
import type { PickupChoice } from "./generated/PickupChoice";
import { awaitsPickup, billText, choiceLabel, choicesByDay, runText, stopText } from "./visit";

test("the valet's position counts the stops before you and gives the expected window", () => {
  assert.equal(
    runText({ stopsBefore: 2, onTheWay: false, eta: "19:30-20:00" }),
    "2 stops before you, expected 19:30-20:00",
  );
  assert.equal(
    runText({ stopsBefore: 1, onTheWay: false, eta: "19:15-19:45" }),
    "1 stop before you, expected 19:15-19:45",
  );
  assert.equal(runText({ stopsBefore: 0, onTheWay: false, eta: "19:00-19:30" }), "You are next, expected 19:00-19:30");
});

test("once the valet sets off for your stop, the text says so", () => {
  assert.equal(
    runText({ stopsBefore: 0, onTheWay: true, eta: "19:20-19:50" }),
    "Your valet is on the way, expected 19:20-19:50",
  );
});

test("a stop's window says whether it was done or cancelled", () => {
  const window = "Wed 25 Nov, 19:00-20:00";
  assert.equal(stopText({ window, state: "planned", run: null }, "pickup"), window);
  assert.equal(stopText({ window, state: "done", run: null }, "pickup"), `${window} · Picked up`);
  assert.equal(stopText({ window, state: "done", run: null }, "delivery"), `${window} · Delivered`);
  assert.equal(stopText({ window, state: "cancelled", run: null }, "pickup"), `${window} · Cancelled`);
});

test("the confirmation matters only while the pickup is still to come", () => {
  const window = "Wed 25 Nov, 19:00-20:00";
  assert.equal(awaitsPickup({ window, state: "planned", run: null }), true);
  assert.equal(awaitsPickup({ window, state: "on-the-way", run: null }), true);
  assert.equal(awaitsPickup({ window, state: "done", run: null }), false);
  assert.equal(awaitsPickup(null), false);
});

test("the estimate and the bill read as the issue words them", () => {
  assert.equal(billText(450, 600), "Estimate KSh 450 · Bill after weighing KSh 600");
  assert.equal(billText(1200, 1500), "Estimate KSh 1,200 · Bill after weighing KSh 1,500");
});

test("pickup choices are grouped by day in order, each with the places left", () => {
  const choice = (value: string, day: string, window: string, remaining: number): PickupChoice => ({
    value,
    day,
    window,
    remaining,
  });
  const choices = [
    choice("2026-11-25T20:00", "Wed 25 Nov", "20:00-21:00", 1),
    choice("2026-11-25T21:00", "Wed 25 Nov", "21:00-22:00", 8),
    choice("2026-11-26T19:00", "Thu 26 Nov", "19:00-20:00", 3),
  ];

  const days = choicesByDay(choices);

  assert.deepEqual(
    days.map((day) => [day.day, day.choices.map(choiceLabel)]),
    [
      ["Wed 25 Nov", ["20:00-21:00 (1 place left)", "21:00-22:00 (8 places left)"]],
      ["Thu 26 Nov", ["19:00-20:00 (3 places left)"]],
    ],
  );
});
