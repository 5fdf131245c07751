// The "Day's run" tab's data once hydrated: the board of the chosen day, the runs as staff arrange
// them before saving, and the calls that load another day and save.
import { useRef, useState } from "react";
import { type Failure, failureOf, getDayRun, saveDayRun } from "./api";
import { assignStop, hasChanges, moveStop, runSave, type Runs, savedRuns, shownStops } from "./run";
import type { DayRun } from "./types";
import type { RunPart } from "./urls";

/** The board (null until a day is loaded), its runs as arranged, and the calls that change them. */
export function useDayRun(initial: DayRun | null, onSessionEnded: () => void) {
  const [board, setBoard] = useState<DayRun | null>(initial);
  const [runs, setRuns] = useState<Runs>(() => (initial ? savedRuns(initial) : {}));
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const request = useRef<AbortController | null>(null);

  function show(next: DayRun) {
    setBoard(next);
    setRuns(savedRuns(next));
  }

  function fail(error: unknown) {
    const shown = failureOf(error);
    if (shown.sessionEnded) onSessionEnded();
    setFailure(shown);
  }

  /** Loads the board of `date` (YYYY-MM-DD), on a busy day the window and part named (the first
   * when none); arranged runs not saved are dropped. */
  async function load(date: string, part: RunPart = {}): Promise<DayRun | null> {
    request.current?.abort();
    const mine = new AbortController();
    request.current = mine;
    setLoading(true);
    try {
      const next = await getDayRun(date, part, mine.signal);
      show(next);
      setFailure(null);
      return next;
    } catch (error) {
      if (!mine.signal.aborted) fail(error);
      return null;
    } finally {
      if (request.current === mine) {
        request.current = null;
        setLoading(false);
      }
    }
  }

  /** Saves the stops whose valet or place changed. */
  async function save(csrf: string) {
    if (!board || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveDayRun(runSave(board, runs), csrf);
      show(saved);
      setAnnouncement(`The runs of ${saved.dateLabel} are saved.`);
    } catch (error) {
      fail(error);
    } finally {
      setSaving(false);
    }
  }

  const assign = (stopId: string, valetId: string | null) =>
    board && setRuns((current) => assignStop(board, current, stopId, valetId));
  const move = (stopId: string, delta: -1 | 1) =>
    board && setRuns((current) => moveStop(current, stopId, delta, board.page ? shownStops(board) : undefined));
  const changed = board !== null && hasChanges(board, runs);

  return { board, runs, loading, saving, failure, announcement, changed, load, save, assign, move };
}
