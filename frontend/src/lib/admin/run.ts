// The day board's runs as staff arrange them before saving: each valet's stops in order. Pure
// helpers: the runs as the server last saved them, giving a stop to a valet (it joins the run in
// the order of the windows), moving a stop up or down a run, and what a save sends (the stops whose
// valet or place changed). A busy day shows one window's part; the stops in a run that it does not
// show (`elsewhere`) keep their places in the runs, and a save sends them too when theirs change.
import type { RunItem } from "../generated/RunItem";
import type { RunSave } from "../generated/RunSave";
import type { DayRun, RunStop } from "./types";

/** What `POST /api/admin/run` takes (generated from the Rust struct): the day and the stops whose
 * valet or place changed, each a `RunItem`. */
export type { RunItem, RunSave };

/** Each valet's stops in run order, by valet id; a stop in no list is in no run. */
export type Runs = Record<string, string[]>;

/** Every stop of the board in the order of the day, with its window's start ('19:00'). */
export function boardStops(board: DayRun): { stop: RunStop; start: string }[] {
  return board.windows.flatMap((window) => window.stops.map((stop) => ({ stop, start: window.start })));
}

/** A stop as the runs know it, shown or not: its valet and place as saved, and its window's start. */
interface KnownStop {
  id: string;
  valetId: string | null;
  position: number | null;
  start: string;
}

/** The stops shown, then those in a run that the page does not show. */
function knownStops(board: DayRun): KnownStop[] {
  const shown = boardStops(board).map(({ stop, start }) => ({
    id: stop.id,
    valetId: stop.valetId,
    position: stop.position,
    start,
  }));
  return [...shown, ...board.elsewhere];
}

/** The ids of the stops the page shows. */
export function shownStops(board: DayRun): Set<string> {
  return new Set(boardStops(board).map(({ stop }) => stop.id));
}

/** The runs as saved: each valet's stops by their place (stops without a place last, in the order of the day). */
export function savedRuns(board: DayRun): Runs {
  const runs: Runs = {};
  const placed = knownStops(board)
    .filter((stop) => stop.valetId !== null)
    .map((stop, order) => ({ stop, order }))
    .sort((a, b) => (a.stop.position ?? Infinity) - (b.stop.position ?? Infinity) || a.order - b.order);
  for (const { stop } of placed) {
    const valet = stop.valetId as string;
    (runs[valet] ??= []).push(stop.id);
  }
  return runs;
}

/** The valet whose run holds `stopId`, or null. */
export function valetOf(runs: Runs, stopId: string): string | null {
  for (const [valet, stops] of Object.entries(runs)) if (stops.includes(stopId)) return valet;
  return null;
}

/** The stop's place in its run, from 1, or null when it is in none. */
export function placeOf(runs: Runs, stopId: string): number | null {
  const valet = valetOf(runs, stopId);
  return valet === null ? null : (runs[valet] as string[]).indexOf(stopId) + 1;
}

/**
 * The runs with `stopId` given to `valetId` (null: taken out of every run). It leaves its old run,
 * whose later stops move up, and joins the new one after the stops of its window and the earlier
 * ones, so that a run follows the evening's windows unless staff order it otherwise.
 */
export function assignStop(board: DayRun, runs: Runs, stopId: string, valetId: string | null): Runs {
  const next: Runs = {};
  for (const [valet, stops] of Object.entries(runs)) {
    const kept = stops.filter((id) => id !== stopId);
    if (kept.length > 0) next[valet] = kept;
  }
  if (valetId === null) return next;
  const starts = new Map(knownStops(board).map((stop) => [stop.id, stop.start]));
  const start = starts.get(stopId) ?? "";
  const run = next[valetId] ?? [];
  let at = run.length;
  while (at > 0 && (starts.get(run[at - 1] as string) ?? "") > start) at -= 1;
  next[valetId] = [...run.slice(0, at), stopId, ...run.slice(at)];
  return next;
}

/**
 * The runs with `stopId` swapped with the stop before it (-1) or after it (+1) in its run, among
 * the stops `shown` (all when not given: a busy day's page moves a stop past the ones it shows,
 * and the others keep their places); unchanged at either end.
 */
export function moveStop(runs: Runs, stopId: string, delta: -1 | 1, shown?: ReadonlySet<string>): Runs {
  const valet = valetOf(runs, stopId);
  if (valet === null) return runs;
  const run = [...(runs[valet] as string[])];
  const from = run.indexOf(stopId);
  let to = from + delta;
  while (to >= 0 && to < run.length && shown && !shown.has(run[to] as string)) to += delta;
  if (to < 0 || to >= run.length) return runs;
  [run[from], run[to]] = [run[to] as string, run[from] as string];
  return { ...runs, [valet]: run };
}

/** What a save sends: every stop whose valet or place differs from the board as saved, and the part shown. */
export function runSave(board: DayRun, runs: Runs): RunSave {
  const stops: RunItem[] = [];
  for (const stop of knownStops(board)) {
    const valetId = valetOf(runs, stop.id);
    const position = placeOf(runs, stop.id);
    if (valetId !== stop.valetId || position !== stop.position) stops.push({ stopId: stop.id, valetId, position });
  }
  const page = board.page ? { window: board.page.window, part: board.page.part } : {};
  return { date: board.date, stops, ...page };
}

/** Whether the runs differ from the board as saved. */
export function hasChanges(board: DayRun, runs: Runs): boolean {
  return runSave(board, runs).stops.length > 0;
}

/** A line of the order as the valet counts it: 'Shirt × 2', 'Wash & Fold, 3 kg'. */
export function runLineText(line: { label: string; quantity: number; unit: string }): string {
  return line.unit === "kg" ? `${line.label}, ${line.quantity} kg` : `${line.label} × ${line.quantity}`;
}

/** The window's count: 'No stops', '1 stop', '2 pickups, 1 delivery'. */
export function windowCount({ pickups, deliveries }: { pickups: number; deliveries: number }): string {
  if (pickups + deliveries === 0) return "No stops";
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    pickups > 0 ? count(pickups, "pickup", "pickups") : null,
    deliveries > 0 ? count(deliveries, "delivery", "deliveries") : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/** Today's date in Nairobi, YYYY-MM-DD, at `now` (milliseconds). */
export function nairobiToday(now: number): string {
  return new Date(now + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
