// The dashboard's "Day's run" tab: a day picker, the day's pickups and deliveries by window with
// what a valet needs at the door and a valet select per stop, each valet's run with buttons that
// move a stop earlier or later, and Save. A day of more than 50 stops shows a window at a time (and
// a busy window 50 stops at a time), with links to the others. Without JavaScript the day picker is
// a GET form to /admin, the windows are links, and the board reads as it was saved.
import { type FormEvent, type MouseEvent, useState } from "react";
import type { Failure } from "../../lib/admin/api";
import { boardStops, placeOf, type Runs, valetOf, windowCount } from "../../lib/admin/run";
import type { DayRun, RunStop } from "../../lib/admin/types";
import { type RunPart, runHref } from "../../lib/admin/urls";
import { AdminAlert } from "./AdminAlert";
import { RunStopCard } from "./RunStopCard";
import { ValetRun } from "./ValetRun";

interface RunPanelProps {
  board: DayRun | null;
  runs: Runs;
  loading: boolean;
  saving: boolean;
  changed: boolean;
  failure: Failure | null;
  announcement: string;
  /** The day shown in the picker when no board is loaded yet (YYYY-MM-DD). */
  today: string;
  onDate: (date: string) => void;
  /** Shows another window or part of a busy day. */
  onPart: (part: RunPart) => void;
  onAssign: (stopId: string, valetId: string | null) => void;
  onMove: (stopId: string, delta: -1 | 1) => void;
  onSave: () => void;
}

/** The tab's content. */
export function RunPanel(props: RunPanelProps) {
  const { board, runs, changed, saving } = props;
  const [date, setDate] = useState(board?.date ?? props.today);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (date) props.onDate(date);
  }

  const stops = board ? boardStops(board).map(({ stop }) => stop) : [];
  const byId = new Map(stops.map((stop) => [stop.id, stop]));
  const windowOf = new Map(board ? board.windows.flatMap((w) => w.stops.map((s) => [s.id, w.label] as const)) : []);
  // Valets with a run: the enabled ones, and any other a stop is still with (an account disabled since).
  const valets = board ? [...board.valets] : [];
  for (const stop of stops) {
    const valet = valetOf(runs, stop.id);
    if (valet && !valets.some((v) => v.id === valet))
      valets.push({ id: valet, email: stop.valetId === valet ? (stop.valetEmail ?? valet) : valet });
  }
  const emailOf = (valetId: string) => valets.find((valet) => valet.id === valetId)?.email ?? valetId;
  // The day's counts as saved, with the shown stops as arranged now.
  const windows = board?.windows ?? [];
  const total = windows.reduce((sum, window) => sum + window.pickups + window.deliveries, 0);
  const unassigned =
    windows.reduce((sum, window) => sum + window.unassigned, 0) -
    stops.filter((stop) => stop.valetId === null).length +
    stops.filter((stop) => valetOf(runs, stop.id) === null).length;
  const page = board?.page ?? null;
  // Valets with a shown stop in their run.
  const withRuns = valets.filter((valet) => (runs[valet.id] ?? []).some((id) => byId.has(id)));
  const shownWindows = page ? windows.filter((window) => window.stops.length > 0) : windows;
  const pageWindow = page ? windows.find((window) => window.start === page.window) : undefined;
  const pageWindowTotal = pageWindow ? pageWindow.pickups + pageWindow.deliveries : 0;

  /** A link to another part of the day: followed here (asking first when runs are not saved). */
  function partLink(part: RunPart) {
    return {
      href: board ? runHref(board.date, part) : "#",
      onClick: (event: MouseEvent<HTMLAnchorElement>) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        if (changed && !window.confirm("Your changes to the runs are not saved. Leave them and show another part?"))
          return;
        props.onPart(part);
      },
    };
  }

  return (
    <>
      <h2 className="visually-hidden">Day's run</h2>
      <form className="filter-bar run-day" method="get" action="/admin" aria-label="Choose the day" onSubmit={onSubmit}>
        <input type="hidden" name="tab" value="run" />
        <div className="field">
          <label htmlFor="run-date">Day</label>
          <input
            id="run-date"
            type="date"
            name="date"
            required
            value={date}
            onChange={(event) => setDate(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary">
          Show
        </button>
      </form>
      {props.failure && <AdminAlert failure={props.failure} />}
      <p className="visually-hidden" aria-live="polite">
        {props.announcement}
      </p>
      {!board ? (
        <p className="admin-empty">{props.loading ? "Loading the day's stops…" : "Choose a day to see its stops."}</p>
      ) : (
        <>
          <h3 className="run-title">
            {board.dateLabel}: {total === 1 ? "1 stop" : `${total} stops`}
            {unassigned > 0 && <span className="run-title__note"> · {unassigned} not in a run</span>}
          </h3>
          {board.valets.length === 0 && (
            <p className="alert alert--warning">
              No valet accounts yet: create one with <code>laundry admin create --email … --role valet</code>.
            </p>
          )}
          {board.warnings.length > 0 && (
            <div className="alert alert--warning" role="status">
              <p>A run as saved puts a stop after one of a later window:</p>
              <ul>
                {board.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </div>
          )}
          {page && (
            <nav className="run-parts" aria-label="Windows of the day">
              <p className="run-parts__note">A busy day: one window at a time.</p>
              <ul className="run-parts__list">
                {windows.map((window) =>
                  window.start === page.window || window.pickups + window.deliveries > 0 ? (
                    <li key={window.label}>
                      <a
                        {...partLink({ window: window.start })}
                        aria-current={window.start === page.window ? "page" : undefined}
                      >{`${window.label} · ${windowCount(window)}`}</a>
                    </li>
                  ) : (
                    <li key={window.label} className="run-parts__empty">
                      {`${window.label} · No stops`}
                    </li>
                  ),
                )}
              </ul>
              {page.parts > 1 && (
                <p className="run-parts__range">
                  {`Stops ${page.first}–${page.last} of ${pageWindowTotal} in this window: `}
                  {Array.from({ length: page.parts }, (_, index) => index + 1).map((part) => (
                    <a
                      key={part}
                      {...partLink({ window: page.window, part })}
                      aria-current={part === page.part ? "page" : undefined}
                      aria-label={`Part ${part}`}
                      className="run-parts__part"
                    >
                      {part}
                    </a>
                  ))}
                </p>
              )}
            </nav>
          )}
          {shownWindows.map((window) => (
            <section key={window.label} className="run-window" aria-labelledby={`run-window-${window.start}`}>
              <h4 id={`run-window-${window.start}`}>
                {window.label} <span className="run-window__count">{windowCount(window)}</span>
              </h4>
              {window.stops.length > 0 && (
                <ul className="run-stops">
                  {window.stops.map((stop: RunStop) => (
                    <RunStopCard
                      key={stop.id}
                      stop={stop}
                      valets={valets}
                      valetId={valetOf(runs, stop.id)}
                      place={placeOf(runs, stop.id)}
                      onAssign={props.onAssign}
                    />
                  ))}
                </ul>
              )}
            </section>
          ))}
          <section className="run-valets" aria-labelledby="run-valets-heading">
            <h3 id="run-valets-heading">Runs</h3>
            {page && (
              <p className="run-valets__note">
                Each run&apos;s stops in the window shown, at their places in the day&apos;s run.
              </p>
            )}
            {withRuns.length === 0 ? (
              <p className="admin-empty">
                {page
                  ? "No stop shown is in a run yet: choose a valet for each stop above."
                  : "No stop is in a run yet: choose a valet for each stop above."}
              </p>
            ) : (
              withRuns.map((valet) => {
                const run = runs[valet.id] ?? [];
                return (
                  <ValetRun
                    key={valet.id}
                    email={emailOf(valet.id)}
                    stops={run.flatMap((id, index) => {
                      const stop = byId.get(id);
                      return stop ? [{ stop, window: windowOf.get(id) ?? "", place: index + 1 }] : [];
                    })}
                    others={run.filter((id) => !byId.has(id)).length}
                    onMove={props.onMove}
                  />
                );
              })
            )}
          </section>
          <div className="run-actions">
            <button
              type="button"
              className="button button--primary"
              aria-disabled={!changed || undefined}
              onClick={() => changed && props.onSave()}
            >
              {saving ? "Saving…" : "Save the runs"}
            </button>
            <span className="run-actions__note">{changed ? "Changes not saved yet." : "Saved."}</span>
          </div>
        </>
      )}
    </>
  );
}
