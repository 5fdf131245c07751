// The dashboard's "Awaiting confirmation" panel (the home page promises a slot confirmed within 30
// minutes of booking): each pending order whose pickup nobody has confirmed, the time since it was
// booked, those past 30 minutes highlighted, with Confirm and Move.
import type { AwaitingList, SlotConfirmed } from "../../lib/admin/types";
import { AwaitingRow } from "./AwaitingRow";

interface AwaitingPanelProps {
  list: AwaitingList;
  csrf: string;
  /** Read out after a change. */
  announcement: string;
  onChanged: (answer: SlotConfirmed, moved: boolean) => void;
  onSessionEnded: () => void;
}

/** The panel; a line saying so when nothing awaits. */
export function AwaitingPanel({ list, csrf, announcement, onChanged, onSessionEnded }: AwaitingPanelProps) {
  const overdue = list.items.filter((item) => item.overdue).length;
  return (
    <section className="card awaiting" aria-labelledby="awaiting-heading">
      <div className="awaiting__head">
        <h2 id="awaiting-heading">Awaiting confirmation</h2>
        <span className={list.items.length === 0 ? "badge badge--success" : "badge badge--warning"}>
          {list.items.length}
        </span>
        {overdue > 0 && <span className="awaiting__overdue-count">{overdue} past 30 minutes</span>}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {list.items.length === 0 ? (
        <p className="awaiting__empty">Every booked pickup slot is confirmed.</p>
      ) : (
        <ul className="awaiting__list">
          {list.items.map((item) => (
            <AwaitingRow
              key={`${item.orderId} ${item.pickup}`}
              item={item}
              slots={list.slots}
              csrf={csrf}
              onChanged={onChanged}
              onSessionEnded={onSessionEnded}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
