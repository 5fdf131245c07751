// The dashboard's "Needs attention" panel, at the top: orders that wait for someone, oldest first —
// a pickup or a delivery the valet missed (not home, not ready), a pickup whose window passed with
// nothing recorded, an order ready for days and not delivered. A missed or late stop is booked
// again here, in a window chosen from the list (a pickup checks the window's room).
import { type FormEvent, useId, useState } from "react";
import { changeSlot, type Failure, failureOf } from "../../lib/admin/api";
import { firstWithRoom, moveChoices, slotOptionLabel } from "../../lib/admin/slots";
import type { AwaitingList, SlotConfirmed, SlotOption, WaitingItem } from "../../lib/admin/types";
import { telHref } from "../../lib/format";
import { AdminAlert } from "./AdminAlert";

interface WaitingPanelProps {
  list: AwaitingList;
  csrf: string;
  onChanged: (answer: SlotConfirmed, moved: boolean) => void;
  onSessionEnded: () => void;
}

/** The panel; nothing at all when no order waits. */
export function WaitingPanel({ list, csrf, onChanged, onSessionEnded }: WaitingPanelProps) {
  if (list.waiting.length === 0) return null;
  return (
    <section className="card awaiting waiting" aria-labelledby="waiting-heading">
      <div className="awaiting__head">
        <h2 id="waiting-heading">Needs attention</h2>
        <span className="badge badge--danger">{list.waiting.length}</span>
      </div>
      <ul className="waiting__list">
        {list.waiting.map((item) => (
          <WaitingRow
            key={`${item.orderId} ${item.kind}`}
            item={item}
            slots={list.slots}
            csrf={csrf}
            onChanged={onChanged}
            onSessionEnded={onSessionEnded}
          />
        ))}
      </ul>
    </section>
  );
}

/** One order that waits, with "Book again" for a stop. */
function WaitingRow({
  item,
  slots,
  csrf,
  onChanged,
  onSessionEnded,
}: {
  item: WaitingItem;
  slots: SlotOption[];
  csrf: string;
  onChanged: (answer: SlotConfirmed, moved: boolean) => void;
  onSessionEnded: () => void;
}) {
  const delivery = item.kind === "missed-delivery";
  const bookable = item.kind !== "ready-too-long" && item.kind !== "missing-from-rack";
  const choices = moveChoices(slots, item.slot ?? "");
  const [target, setTarget] = useState(() => (delivery ? (choices[0]?.value ?? "") : firstWithRoom(choices)));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const id = useId();

  async function book(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || !target) return;
    setSaving(true);
    setFailure(null);
    try {
      const change = delivery
        ? ({ action: "move-delivery", delivery: target } as const)
        : ({ action: "move", pickup: target } as const);
      onChanged(await changeSlot(item.orderId, change, csrf), true);
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
      setSaving(false);
    }
  }

  return (
    <li className="waiting__item">
      <div className="awaiting__who">
        <strong id={`${id}-order`}>#{item.orderId}</strong> {item.name} · <a href={telHref(item.phone)}>{item.phone}</a>
      </div>
      <div className="waiting__what">{item.what}</div>
      {bookable && (
        <form className="waiting__again" onSubmit={book}>
          <div className="field">
            <label
              htmlFor={`${id}-slot`}
            >{`New ${delivery ? "delivery" : "pickup"} window for #${item.orderId}`}</label>
            <select id={`${id}-slot`} value={target} onChange={(event) => setTarget(event.target.value)}>
              {choices.length === 0 && <option value="">No window can be booked</option>}
              {choices.map((option) => (
                <option key={option.value} value={option.value} disabled={!delivery && option.remaining === 0}>
                  {delivery ? option.label : slotOptionLabel(option)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button--primary button--small" aria-describedby={`${id}-order`}>
            {saving ? "Saving…" : "Book again"}
          </button>
        </form>
      )}
      {failure && <AdminAlert failure={failure} />}
    </li>
  );
}
