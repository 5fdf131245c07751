import { test } from "node:test";
import assert from "node:assert/strict";
import type { OrderLine } from "./generated/OrderLine";
import type { PickupChoices } from "./generated/PickupChoices";
import type { PickupOption } from "./generated/PickupOption";
import { lineDetail } from "./order";
import {
  dayOf,
  deliveryOf,
  findOption,
  initialPickup,
  isRush,
  optionLabel,
  rushLabel,
  turnaroundText,
  withRush,
  withSlots,
} from "./pickup";

const RUSH: OrderLine = {
  kind: "surcharge",
  item: "next-day-rush",
  label: "Next-day rush",
  quantity: 1,
  unit: "piece",
  unitPrice: 300,
  amount: 300,
};

function option(value: string, remaining: number): PickupOption {
  const window = value.endsWith("19:00") ? "19:00-20:00" : "20:00-21:00";
  return {
    value,
    window,
    label: `${value.slice(0, 10)}, ${window}`,
    remaining,
    delivery: `3 days later, ${window}`,
    rushDelivery: `next day, ${window}`,
  };
}

const CHOICES: PickupChoices = {
  days: [
    {
      date: "2026-11-25",
      label: "Today, Wed 25 Nov",
      windows: [option("2026-11-25T19:00", 0), option("2026-11-25T20:00", 0)],
    },
    {
      date: "2026-11-26",
      label: "Tomorrow, Thu 26 Nov",
      windows: [option("2026-11-26T19:00", 3), option("2026-11-26T20:00", 1)],
    },
  ],
  turnaroundDays: 3,
  rushLine: RUSH,
};

test("a window reads with its day and the places it has left, or as full", () => {
  assert.equal(optionLabel(option("2026-11-26T19:00", 3)), "2026-11-26, 19:00-20:00 (3 left)");
  assert.equal(optionLabel(option("2026-11-26T19:00", 0)), "2026-11-26, 19:00-20:00 (full)");
});

test("the form opens on the first window with room, or on the one sent back if it still has room", () => {
  assert.equal(initialPickup(CHOICES, undefined), "2026-11-26T19:00");
  assert.equal(initialPickup(CHOICES, ""), "2026-11-26T19:00");
  assert.equal(initialPickup(CHOICES, "2026-11-26T20:00"), "2026-11-26T20:00");
});

test("a window sent back that is full or gone is not chosen for the customer", () => {
  assert.equal(initialPickup(CHOICES, "2026-11-25T19:00"), "");
  assert.equal(initialPickup(CHOICES, "2026-12-01T19:00"), "");
  const none: PickupChoices = { ...CHOICES, days: [CHOICES.days[0]!] };
  assert.equal(initialPickup(none, undefined), "");
});

test("the delivery follows the option, the next day with rush", () => {
  const chosen = findOption(CHOICES, "2026-11-26T20:00");
  assert.ok(chosen);
  assert.equal(deliveryOf(chosen, false), "3 days later, 20:00-21:00");
  assert.equal(deliveryOf(chosen, true), "next day, 20:00-21:00");
  assert.equal(findOption(CHOICES, "2026-11-27T19:00"), null);
  assert.equal(findOption(CHOICES, null), null);
});

test("the rush box reads its form value and its label carries the surcharge", () => {
  assert.equal(isRush("on"), true);
  assert.equal(isRush(undefined), false);
  assert.equal(isRush(""), false);
  assert.equal(rushLabel(RUSH), "Next-day rush (+KSh 300)");
  assert.equal(rushLabel({ ...RUSH, amount: 0, unitPrice: 0 }), "Next-day rush");
  assert.equal(turnaroundText(3), "Delivered in 3 days");
  assert.equal(turnaroundText(1), "Delivered in 1 day");
});

test("rush adds its line and amount to a complete quote, and nothing otherwise", () => {
  const wash: OrderLine = { ...RUSH, kind: "kg", item: "wash-fold", label: "Wash & Fold", amount: 450 };
  const quote = { lines: [wash], total: 450, problems: [] };
  const rushed = withRush(quote, RUSH, true);
  assert.deepEqual(
    rushed?.lines.map((line) => line.item),
    ["wash-fold", "next-day-rush"],
  );
  assert.equal(rushed?.total, 750);
  assert.equal(withRush(quote, RUSH, false), quote);
  assert.equal(withRush(null, RUSH, true), null);
  const incomplete = withRush({ lines: [wash], total: null, problems: ["Enter the quantity in kg"] }, RUSH, true);
  assert.equal(incomplete?.total, null);
  assert.equal(lineDetail(RUSH), null, "one amount, no 'quantity × price' under it");
});

test("a day brought up to date keeps full windows as full and drops those past their cut-off", () => {
  const updated = withSlots(CHOICES, {
    date: "2026-11-26",
    windows: [
      {
        start: "19:00",
        end: "20:00",
        remaining: 0,
        value: "2026-11-26T19:00",
        open: false,
        full: true,
        reason: "full",
      },
      {
        start: "20:00",
        end: "21:00",
        remaining: 0,
        value: "2026-11-26T20:00",
        open: false,
        full: false,
        reason: "closed at 19:00",
      },
    ],
  });
  const tomorrow = updated.days.find((day) => day.date === "2026-11-26");
  assert.deepEqual(
    tomorrow?.windows.map((window) => [window.value, window.remaining]),
    [["2026-11-26T19:00", 0]],
  );
  assert.equal(updated.days[0], CHOICES.days[0], "other days are left as they were");
  assert.equal(dayOf("2026-11-26T19:00"), "2026-11-26");
});
