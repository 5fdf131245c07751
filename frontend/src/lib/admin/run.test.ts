import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assignStop,
  hasChanges,
  moveStop,
  nairobiToday,
  placeOf,
  runLineText,
  runSave,
  savedRuns,
  valetOf,
  windowCount,
} from "./run";
import type { DayRun, RunStop } from "./types";

function stop(id: string, kind: RunStop["kind"], valetId: string | null, position: number | null): RunStop {
  return {
    id,
    kind,
    orderId: `ORD${id.toUpperCase()}`.padEnd(8, "X"),
    name: "Amina Wanjiru",
    phone: "+254712345678",
    location: "Kilimani",
    landmark: "",
    mapLink: null,
    instructions: "",
    lines: [],
    confirmed: true,
    state: "planned",
    valetId,
    valetEmail: valetId ? `${valetId}@example.com` : null,
    position,
  };
}

/** Two windows: a (otieno 2), b (otieno 1), c (nobody) at 19:00; d (nobody) at 20:00. */
function board(): DayRun {
  return {
    date: "2026-11-25",
    dateLabel: "Wed 25 Nov",
    windows: [
      {
        start: "19:00",
        label: "19:00-20:00",
        stops: [stop("a", "pickup", "otieno", 2), stop("b", "delivery", "otieno", 1), stop("c", "pickup", null, null)],
      },
      { start: "20:00", label: "20:00-21:00", stops: [stop("d", "pickup", null, null)] },
    ],
    valets: [
      { id: "otieno", email: "otieno@example.com" },
      { id: "achieng", email: "achieng@example.com" },
    ],
    warnings: [],
  };
}

test("the saved runs follow the places the server holds", () => {
  const runs = savedRuns(board());
  assert.deepEqual(runs, { otieno: ["b", "a"] });
  assert.equal(valetOf(runs, "a"), "otieno");
  assert.equal(placeOf(runs, "a"), 2);
  assert.equal(placeOf(runs, "c"), null);
  assert.equal(hasChanges(board(), runs), false);
  assert.deepEqual(runSave(board(), runs), { date: "2026-11-25", stops: [] });
});

test("a stop given to a valet joins the run after the stops of its window and earlier ones", () => {
  const day = board();
  const withLater = assignStop(day, savedRuns(day), "d", "otieno");
  assert.deepEqual(withLater.otieno, ["b", "a", "d"]);
  const withEarlier = assignStop(day, { otieno: ["d"] }, "c", "otieno");
  assert.deepEqual(withEarlier.otieno, ["c", "d"], "a 19:00 stop goes before a 20:00 one");
});

test("a stop moved to another valet leaves its old run, whose later stops move up", () => {
  const day = board();
  const runs = assignStop(day, savedRuns(day), "b", "achieng");
  assert.deepEqual(runs, { otieno: ["a"], achieng: ["b"] });
  assert.deepEqual(runSave(day, runs).stops, [
    { stopId: "a", valetId: "otieno", position: 1 },
    { stopId: "b", valetId: "achieng", position: 1 },
  ]);
});

test("a stop taken out of every run is sent without a valet or a place", () => {
  const day = board();
  const runs = assignStop(day, savedRuns(day), "b", null);
  assert.deepEqual(runs, { otieno: ["a"] });
  assert.deepEqual(runSave(day, runs).stops, [
    { stopId: "a", valetId: "otieno", position: 1 },
    { stopId: "b", valetId: null, position: null },
  ]);
});

test("moving a stop up or down swaps it with its neighbour, and does nothing at the ends", () => {
  const runs = { otieno: ["b", "a", "d"] };
  assert.deepEqual(moveStop(runs, "a", -1).otieno, ["a", "b", "d"]);
  assert.deepEqual(moveStop(runs, "a", 1).otieno, ["b", "d", "a"]);
  assert.equal(moveStop(runs, "b", -1), runs);
  assert.equal(moveStop(runs, "d", 1), runs);
  assert.equal(moveStop(runs, "c", 1), runs, "a stop in no run does not move");
});

test("a save sends only the stops whose valet or place changed", () => {
  const day = board();
  const runs = moveStop(savedRuns(day), "a", -1);
  assert.deepEqual(runSave(day, runs), {
    date: "2026-11-25",
    stops: [
      { stopId: "a", valetId: "otieno", position: 1 },
      { stopId: "b", valetId: "otieno", position: 2 },
    ],
  });
  assert.equal(hasChanges(day, runs), true);
});

test("lines and windows read as a valet counts them", () => {
  assert.equal(runLineText({ label: "Shirt", quantity: 2, unit: "piece" }), "Shirt × 2");
  assert.equal(runLineText({ label: "Wash & Fold", quantity: 3, unit: "kg" }), "Wash & Fold, 3 kg");
  assert.equal(windowCount([]), "No stops");
  assert.equal(windowCount([{ kind: "pickup" }]), "1 pickup");
  assert.equal(windowCount([{ kind: "pickup" }, { kind: "pickup" }, { kind: "delivery" }]), "2 pickups, 1 delivery");
});

test("today is Nairobi's date, three hours ahead of UTC", () => {
  assert.equal(nairobiToday(Date.parse("2026-11-24T20:59:00Z")), "2026-11-24");
  assert.equal(nairobiToday(Date.parse("2026-11-24T21:00:00Z")), "2026-11-25");
});
