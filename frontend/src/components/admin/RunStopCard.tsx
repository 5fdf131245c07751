// One stop on the day board: pickup or delivery, the order and customer (tap to call), where
// (location, landmark, map pin), the instructions and items, whether the slot is confirmed, how far
// it has got, the order's status and what the valet collects, and the valet whose run it is in.
import { useId } from "react";
import { runLineText } from "../../lib/admin/run";
import type { RunStop, RunValet } from "../../lib/admin/types";
import { telHref } from "../../lib/format";
import { OrderStatusBadge } from "./OrderStatusBadge";

interface RunStopCardProps {
  stop: RunStop;
  valets: RunValet[];
  /** The valet as arranged now (maybe not saved yet). */
  valetId: string | null;
  /** Its place in that run. */
  place: number | null;
  onAssign: (stopId: string, valetId: string | null) => void;
}

const STATE_LABELS: Record<RunStop["state"], string> = {
  planned: "Planned",
  "on-the-way": "On the way",
  done: "Done",
  missed: "Missed",
  cancelled: "Cancelled",
};

/** The card. */
export function RunStopCard({ stop, valets, valetId, place, onAssign }: RunStopCardProps) {
  const id = useId();
  const pickup = stop.kind === "pickup";
  return (
    <li className="run-stop">
      <div className="run-stop__head">
        <span className={pickup ? "badge badge--info" : "badge badge--primary"}>{pickup ? "Pickup" : "Delivery"}</span>
        <strong id={`${id}-order`}>#{stop.orderId}</strong>
        <span>{stop.name}</span>
        <a href={telHref(stop.phone)}>{stop.phone}</a>
      </div>
      <p className="run-stop__where">
        {stop.location}
        {stop.landmark && <> · {stop.landmark}</>}
        {stop.mapLink && (
          <>
            {" · "}
            <a href={stop.mapLink} target="_blank" rel="noopener noreferrer">
              Map pin
            </a>
          </>
        )}
      </p>
      {stop.lines.length > 0 && <p className="run-stop__lines">{stop.lines.map(runLineText).join(" · ")}</p>}
      {stop.instructions && <p className="run-stop__note">Instructions: {stop.instructions}</p>}
      <div className="run-stop__status">
        {pickup && (
          <span className={stop.confirmed ? "badge badge--success" : "badge badge--warning"}>
            {stop.confirmed ? "Slot confirmed" : "Not confirmed"}
          </span>
        )}
        <span className="badge badge--secondary">{STATE_LABELS[stop.state]}</span>
        <span className="run-stop__order">
          <span className="visually-hidden">Order status: </span>
          <OrderStatusBadge status={stop.status} />
        </span>
      </div>
      <p className={stop.toCollect > 0 ? "run-stop__money run-stop__money--due" : "run-stop__money"}>{stop.money}</p>
      <div className="field run-stop__valet">
        <label htmlFor={`${id}-valet`}>Valet</label>
        <select
          id={`${id}-valet`}
          aria-describedby={`${id}-order`}
          value={valetId ?? ""}
          onChange={(event) => onAssign(stop.id, event.target.value || null)}
        >
          <option value="">Not in a run</option>
          {valets.map((valet) => (
            <option key={valet.id} value={valet.id}>
              {valet.email}
            </option>
          ))}
        </select>
        {place !== null && <span className="run-stop__place">Stop {place} of the run</span>}
      </div>
    </li>
  );
}
