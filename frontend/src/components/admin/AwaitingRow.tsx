// One pickup awaiting confirmation: the order, the customer (tap to call), the booked window and
// the time since booking, with Confirm, and Move, which opens a list of the bookable windows.
import { type FormEvent, useId, useState } from "react";
import { changeSlot, type Failure, failureOf } from "../../lib/admin/api";
import { firstWithRoom, moveChoices, sinceBooking, slotOptionLabel } from "../../lib/admin/slots";
import type { AwaitingPickup, SlotConfirmed, SlotOption } from "../../lib/admin/types";
import { telHref } from "../../lib/format";
import { AdminAlert } from "./AdminAlert";

interface AwaitingRowProps {
  item: AwaitingPickup;
  slots: SlotOption[];
  csrf: string;
  onChanged: (answer: SlotConfirmed, moved: boolean) => void;
  onSessionEnded: () => void;
}

/** The row. */
export function AwaitingRow({ item, slots, csrf, onChanged, onSessionEnded }: AwaitingRowProps) {
  const [moving, setMoving] = useState(false);
  const choices = moveChoices(slots, item.pickup);
  const [target, setTarget] = useState(() => firstWithRoom(choices));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const id = useId();

  async function send(change: { action: "confirm" } | { action: "move"; pickup: string }) {
    if (saving) return;
    setSaving(true);
    setFailure(null);
    try {
      onChanged(await changeSlot(item.orderId, change, csrf), change.action === "move");
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
      setSaving(false);
    }
  }

  function onMove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (target) void send({ action: "move", pickup: target });
  }

  return (
    <li className={item.overdue ? "awaiting__item is-overdue" : "awaiting__item"}>
      <div className="awaiting__who">
        <strong id={`${id}-order`}>#{item.orderId}</strong> {item.name} · <a href={telHref(item.phone)}>{item.phone}</a>
      </div>
      <div className="awaiting__when">
        Pickup {item.pickupLabel} ·{" "}
        <time dateTime={item.bookedAt} className={item.overdue ? "awaiting__late" : undefined}>
          {sinceBooking(item.minutesWaiting)}
        </time>
        {item.overdue && <span className="awaiting__late"> · past 30 minutes</span>}
      </div>
      <div className="awaiting__actions">
        {/* Not disabled while saving: that would drop the keyboard focus; a second press is ignored. */}
        <button
          type="button"
          className="button button--primary button--small"
          aria-describedby={`${id}-order`}
          onClick={() => void send({ action: "confirm" })}
        >
          {saving && !moving ? "Saving…" : "Confirm"}
        </button>
        <button
          type="button"
          className="button button--outline button--small"
          aria-expanded={moving}
          aria-controls={`${id}-move`}
          aria-describedby={`${id}-order`}
          onClick={() => setMoving(!moving)}
        >
          Move
        </button>
      </div>
      {moving && (
        <form id={`${id}-move`} className="awaiting__move" onSubmit={onMove}>
          <div className="field">
            <label htmlFor={`${id}-slot`}>Move #{item.orderId} to</label>
            <select id={`${id}-slot`} value={target} onChange={(event) => setTarget(event.target.value)}>
              {choices.length === 0 && <option value="">No other window can be booked</option>}
              {choices.map((option) => (
                <option key={option.value} value={option.value} disabled={option.remaining === 0}>
                  {slotOptionLabel(option)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button--primary button--small">
            {saving ? "Saving…" : "Move and confirm"}
          </button>
        </form>
      )}
      {failure && <AdminAlert failure={failure} />}
    </li>
  );
}
