// One person's cash of a day in the cash-up: what they collected (each cash entry with its order ID,
// amount and time), what they handed in and what they still hold, the handovers staff recorded,
// and the form "Cash handed in" that records another (prefilled with what they still hold).
import { useId, useState } from "react";
import { recordHandover } from "../../lib/admin/api";
import { lineAmount, shortOrderId } from "../../lib/admin/display";
import { parseAmount } from "../../lib/admin/money";
import type { CashHolder, CashUp } from "../../lib/admin/types";
import { useChange } from "../../lib/admin/useChange";
import { formatClock, formatKsh } from "../../lib/format";
import { newIdempotencyKey } from "../../lib/submit";
import { useFocusReturn } from "../../lib/useFocusReturn";
import { MoneyField, MoneyForm } from "./MoneyForm";

interface CashHolderCardProps {
  holder: CashHolder;
  /** The cash-up's day (YYYY-MM-DD). */
  day: string;
  csrf: string;
  /** Opens an order's detail. */
  onOpen: (id: string) => void;
  /** Cash was handed in: the day's cash-up after it. */
  onHandedIn: (cashUp: CashUp, holder: string, amount: number) => void;
  onSessionEnded: () => void;
}

/** The "Still held" box's look: cash still out, all handed in, or more handed in than collected. */
function holderTone(stillHeld: number): string {
  if (stillHeld > 0) return "is-holding";
  return stillHeld === 0 ? "is-settled" : "is-over";
}

/** The card. */
export function CashHolderCard({ holder, day, csrf, onOpen, onHandedIn, onSessionEnded }: CashHolderCardProps) {
  const headingId = useId();
  const [handing, setHanding] = useState(false);
  // The focus comes back to "Cash handed in" when its form closes.
  const { ref: button, remember } = useFocusReturn<HTMLButtonElement>(handing);
  return (
    <section className="card cash-holder" aria-labelledby={headingId}>
      <h4 id={headingId} className="cash-holder__name">
        {holder.holder}
      </h4>
      <dl className="cash-holder__sums">
        <div>
          <dt>Collected</dt>
          <dd>{formatKsh(holder.collected)}</dd>
        </div>
        <div>
          <dt>Handed in</dt>
          <dd>{formatKsh(holder.handedIn)}</dd>
        </div>
        <div className={`cash-holder__held ${holderTone(holder.stillHeld)}`}>
          <dt>Still held</dt>
          <dd>{lineAmount(holder.stillHeld)}</dd>
        </div>
      </dl>
      {holder.entries.length > 0 && (
        <table className="cash-table">
          <caption className="visually-hidden">{`Cash entered under ${holder.holder}`}</caption>
          <thead>
            <tr>
              <th scope="col">Order ID</th>
              <th scope="col">Amount</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {holder.entries.map((entry, index) => (
              <tr key={`${entry.orderId}-${entry.at}-${index}`}>
                <th scope="row">
                  <button
                    type="button"
                    className="order-detail__link"
                    aria-haspopup="dialog"
                    onClick={() => onOpen(entry.orderId)}
                  >
                    {shortOrderId(entry.orderId)}
                  </button>
                </th>
                <td>{lineAmount(entry.amount)}</td>
                <td>
                  <time dateTime={entry.at}>{formatClock(entry.at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {holder.handovers.length > 0 && (
        <ul className="cash-holder__handovers" aria-label={`Handed in by ${holder.holder}`}>
          {holder.handovers.map((handover, index) => (
            <li key={`${handover.at}-${index}`}>
              <span>
                {`Handed in ${formatKsh(handover.amount)} at `}
                <time dateTime={handover.at}>{formatClock(handover.at)}</time>
                {`, counted by ${handover.by}`}
              </span>
              {handover.note && <span className="order-detail__who">{handover.note}</span>}
            </li>
          ))}
        </ul>
      )}
      {handing ? (
        <HandoverForm
          holder={holder}
          day={day}
          csrf={csrf}
          onDone={(cashUp, amount) => {
            setHanding(false);
            onHandedIn(cashUp, holder.holder, amount);
          }}
          onClose={() => setHanding(false)}
          onSessionEnded={onSessionEnded}
        />
      ) : (
        <button
          ref={button}
          type="button"
          className="button button--outline button--small"
          aria-label={`Cash handed in by ${holder.holder}`}
          onClick={() => {
            remember();
            setHanding(true);
          }}
        >
          Cash handed in
        </button>
      )}
    </section>
  );
}

interface HandoverFormProps {
  holder: CashHolder;
  day: string;
  csrf: string;
  onDone: (cashUp: CashUp, amount: number) => void;
  onClose: () => void;
  onSessionEnded: () => void;
}

/** "Cash handed in": the amount counted (what they still hold, to start with) and a note. */
function HandoverForm({ holder, day, csrf, onDone, onClose, onSessionEnded }: HandoverFormProps) {
  const change = useChange(["amount", "note"], onSessionEnded);
  const [amount, setAmount] = useState(holder.stillHeld > 0 ? String(holder.stillHeld) : "");
  const [note, setNote] = useState("");
  // One key for this form's handover: sent again by a second click, it is recorded once.
  const [key] = useState(newIdempotencyKey);
  const id = useId();

  async function save() {
    const typed = parseAmount(amount);
    if ("error" in typed) return change.setErrors({ amount: typed.error });
    const body = { holder: holder.holder, day, amount: typed.amount, note: note.trim() };
    const cashUp = await change.send(() => recordHandover(body, key, csrf));
    if (cashUp) onDone(cashUp, typed.amount);
  }

  return (
    <MoneyForm
      id={`${id}-handover`}
      legend={`Cash handed in by ${holder.holder}`}
      lead="Count the cash, then record what was handed in."
      submit="Record cash handed in"
      saving={change.saving}
      errors={change.errors}
      failure={change.failure}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <MoneyField
        id={`${id}-amount`}
        label="Amount counted (KSh)"
        error={change.errors.amount}
        value={amount}
        onChange={setAmount}
        numeric
      />
      <MoneyField
        id={`${id}-note`}
        label="Note"
        optional
        error={change.errors.note}
        value={note}
        onChange={setNote}
        maxLength={200}
      />
    </MoneyForm>
  );
}
