// The "Day's run" tab's data once hydrated: the board of the chosen day, the runs as staff arrange
// them before saving, and the calls that load another day and save.
import { useState } from "react";
import { getDayRun, saveDayRun } from "./api";
import { assignStop, hasChanges, moveStop, runSave, type Runs, savedRuns, shownStops } from "./run";
import type { DayRun } from "./types";
import type { RunPart } from "./urls";
import { useResource } from "./useResource";

/** The board (null until a day is loaded), its runs as arranged, and the calls that change them. */
export function useDayRun(initial: DayRun | null, onSessionEnded: () => void) {
  // A save's failure shows where a load's does.
  const day = useResource<DayRun | null, { date: string; part: RunPart }>({
    fetch: (signal, { date, part }) => getDayRun(date, part, signal),
    initial,
    onSessionEnded,
  });
  const board = day.data;
  const [runs, setRuns] = useState<Runs>(() => (initial ? savedRuns(initial) : {}));
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState("");

  /** Loads the board of `date` (YYYY-MM-DD), on a busy day the window and part named (the first
   * when none); arranged runs not saved are dropped. */
  async function load(date: string, part: RunPart = {}): Promise<DayRun | null> {
    const next = await day.load({ date, part });
    if (next) setRuns(savedRuns(next));
    return next;
  }

  /** Saves the stops whose valet or place changed. */
  async function save(csrf: string) {
    if (!board || saving) return;
    setSaving(true);
    day.clearFailure();
    try {
      const saved = await saveDayRun(runSave(board, runs), csrf);
      day.setData(saved);
      setRuns(savedRuns(saved));
      setAnnouncement(`The runs of ${saved.dateLabel} are saved.`);
    } catch (error) {
      day.fail(error);
    } finally {
      setSaving(false);
    }
  }

  const assign = (stopId: string, valetId: string | null) =>
    board && setRuns((current) => assignStop(board, current, stopId, valetId));
  const move = (stopId: string, delta: -1 | 1) =>
    board && setRuns((current) => moveStop(current, stopId, delta, board.page ? shownStops(board) : undefined));
  const changed = board !== null && hasChanges(board, runs);

  return {
    board,
    runs,
    loading: day.loading,
    saving,
    failure: day.failure,
    announcement,
    changed,
    load,
    save,
    assign,
    move,
  };
}
