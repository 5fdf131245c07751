import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assignStop,
  boardStops,
  hasChanges,
  moveStop,
  nairobiToday,
  placeOf,
  runLineText,
  runSave,
  savedRuns,
  shownStops,
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
    status: "pending",
    money: "Collect KSh 450",
    toCollect: 450,
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
        pickups: 2,
        deliveries: 1,
        unassigned: 1,
      },
      {
        start: "20:00",
        label: "20:00-21:00",
        stops: [stop("d", "pickup", null, null)],
        pickups: 1,
        deliveries: 0,
        unassigned: 1,
      },
    ],
    valets: [
      { id: "otieno", email: "otieno@example.com" },
      { id: "achieng", email: "achieng@example.com" },
    ],
    warnings: [],
    page: null,
    elsewhere: [],
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
  assert.equal(windowCount({ pickups: 0, deliveries: 0 }), "No stops");
  assert.equal(windowCount({ pickups: 1, deliveries: 0 }), "1 pickup");
  assert.equal(windowCount({ pickups: 2, deliveries: 1 }), "2 pickups, 1 delivery");
});

test("today is Nairobi's date, three hours ahead of UTC", () => {
  assert.equal(nairobiToday(Date.parse("2026-11-24T20:59:00Z")), "2026-11-24");
  assert.equal(nairobiToday(Date.parse("2026-11-24T21:00:00Z")), "2026-11-25");
});

/**
 * A busy day's page: the 20:00 window shown (e, f of otieno at places 3 and 4, g in no run); the
 * 19:00 stops of otieno's run at places 1, 2 and 5 and achieng's at 1 are elsewhere.
 */
function pagedBoard(): DayRun {
  return {
    ...board(),
    windows: [
      { start: "19:00", label: "19:00-20:00", stops: [], pickups: 30, deliveries: 10, unassigned: 37 },
      {
        start: "20:00",
        label: "20:00-21:00",
        stops: [stop("e", "pickup", "otieno", 3), stop("f", "pickup", "otieno", 4), stop("g", "pickup", null, null)],
        pickups: 3,
        deliveries: 0,
        unassigned: 1,
      },
    ],
    page: { window: "20:00", part: 1, parts: 1, first: 1, last: 3 },
    elsewhere: [
      { id: "x1", start: "19:00", valetId: "otieno", position: 1 },
      { id: "x2", start: "19:00", valetId: "otieno", position: 2 },
      { id: "x5", start: "21:00", valetId: "otieno", position: 5 },
      { id: "y1", start: "19:00", valetId: "achieng", position: 1 },
    ],
  };
}

test("a busy day's page keeps the runs' places of the stops it does not show", () => {
  const day = pagedBoard();
  const runs = savedRuns(day);
  assert.deepEqual(runs, { otieno: ["x1", "x2", "e", "f", "x5"], achieng: ["y1"] });
  assert.deepEqual(runSave(day, runs), { date: "2026-11-25", stops: [], window: "20:00", part: 1 });
  // g joins otieno's run after the 20:00 stops, before the 21:00 one, which moves to place 6.
  const given = assignStop(day, runs, "g", "otieno");
  assert.deepEqual(given.otieno, ["x1", "x2", "e", "f", "g", "x5"]);
  assert.deepEqual(runSave(day, given).stops, [
    { stopId: "g", valetId: "otieno", position: 5 },
    { stopId: "x5", valetId: "otieno", position: 6 },
  ]);
});

test("on a busy day's page a stop moves past the stops shown, and the others keep their places", () => {
  const day = pagedBoard();
  const shown = shownStops(day);
  const runs = savedRuns(day);
  assert.deepEqual(moveStop(runs, "f", -1, shown).otieno, ["x1", "x2", "f", "e", "x5"]);
  assert.equal(moveStop(runs, "e", -1, shown), runs, "the first stop shown does not move before hidden ones");
  assert.equal(moveStop(runs, "f", 1, shown), runs, "nor the last after them");
});

/** A small seeded generator: the same cases on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test("any assigning and moving on a busy day's page saves runs with places 1 to n, each once", () => {
  const valets = ["otieno", "achieng", null];
  for (let seed = 1; seed <= 300; seed += 1) {
    const next = random(seed);
    const day = pagedBoard();
    const shown = [...shownStops(day)];
    let runs = savedRuns(day);
    for (let step = 0; step < 12; step += 1) {
      const id = shown[Math.floor(next() * shown.length)] as string;
      if (next() < 0.5) runs = assignStop(day, runs, id, valets[Math.floor(next() * valets.length)] ?? null);
      else runs = moveStop(runs, id, next() < 0.5 ? -1 : 1, shownStops(day));
    }
    // The day as the server holds it after the save: the saved places with the sent ones applied.
    const held = new Map<string, { valetId: string | null; position: number | null }>();
    for (const { stop } of boardStops(day)) held.set(stop.id, { valetId: stop.valetId, position: stop.position });
    for (const place of day.elsewhere) held.set(place.id, { valetId: place.valetId, position: place.position });
    for (const item of runSave(day, runs).stops) held.set(item.stopId, item);
    const places = new Map<string, number[]>();
    for (const { valetId, position } of held.values())
      if (valetId !== null) places.set(valetId, [...(places.get(valetId) ?? []), position as number]);
    for (const [valet, positions] of places) {
      const sorted = [...positions].sort((a, b) => a - b);
      assert.deepEqual(
        sorted,
        sorted.map((_, index) => index + 1),
        `seed ${seed}: ${valet}'s places`,
      );
    }
    assert.deepEqual(
      Object.fromEntries(Object.entries(runs).map(([valet, ids]) => [valet, ids.length])),
      Object.fromEntries([...places].map(([valet, positions]) => [valet, positions.length])),
      `seed ${seed}: the runs hold every stop once`,
    );
  }
});
