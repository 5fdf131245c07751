// One valet's run of the day, in order, with buttons that move a stop one place earlier or later
// (on a busy day's page: the stops shown, at their places in the whole run).
import type { RunStop } from "../../lib/admin/types";

interface ValetRunProps {
  email: string;
  /** The run's stops shown in order, with their window ('19:00-20:00') and place in the run. */
  stops: { stop: RunStop; window: string; place: number }[];
  /** The run's stops the page does not show (a busy day's other windows). */
  others: number;
  onMove: (stopId: string, delta: -1 | 1) => void;
}

/** The run as a numbered list. */
export function ValetRun({ email, stops, others, onMove }: ValetRunProps) {
  return (
    <div className="valet-run">
      <h4>{email}</h4>
      <ol className="valet-run__list">
        {stops.map(({ stop, window, place }, index) => (
          <li key={stop.id} className="valet-run__stop" value={place}>
            <span className="valet-run__text">
              <strong>#{stop.orderId}</strong> {stop.kind === "pickup" ? "Pickup" : "Delivery"} · {window} · {stop.name}{" "}
              · {stop.location}
            </span>
            <span className="valet-run__buttons">
              <button
                type="button"
                className="button button--outline button--small"
                aria-label={`Move #${stop.orderId} earlier`}
                aria-disabled={index === 0 || undefined}
                onClick={() => onMove(stop.id, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button--outline button--small"
                aria-label={`Move #${stop.orderId} later`}
                aria-disabled={index === stops.length - 1 || undefined}
                onClick={() => onMove(stop.id, 1)}
              >
                ↓
              </button>
            </span>
          </li>
        ))}
      </ol>
      {others > 0 && (
        <p className="valet-run__others">
          {others === 1 ? "1 more stop" : `${others} more stops`} in other windows or parts of the day.
        </p>
      )}
    </div>
  );
}
