// The order dialog's money: how the customer chose to pay, where the money stands, the ledger as a
// table (what, amount, how, reference, who, when, note; oldest first) with the balance under it,
// and what staff can do about it: correct an entry entered by mistake, refund what is owed back or
// keep it as store credit, give a discount. Each adds an entry; the dialog then shows the order
// anew, and the result is read out.
import { useRef, useState } from "react";
import { lineAmount } from "../../lib/admin/display";
import { balanceLine, entryNote, entryWhat, entryWho, methodLabel } from "../../lib/admin/money";
import type { LedgerEntryView, OrderChanged, OrderDetail } from "../../lib/admin/types";
import { formatDayTime, formatKsh } from "../../lib/format";
import { CorrectForm, CreditForm, DiscountForm, RefundForm } from "./LedgerForms";
import { SettlementBadge } from "./SettlementBadge";

/** Spec section 2: the two payment choices as the order form names them. */
const PAYMENT_METHODS: Record<string, string> = {
  "pay-now": "Pay Now (M-PESA)",
  "pay-delivery": "Pay on Delivery",
};

/** The form open under the ledger, if any. */
type Open = { form: "refund" | "credit" | "discount" } | { form: "correct"; entry: LedgerEntryView };

interface OrderLedgerProps {
  detail: OrderDetail;
  csrf: string;
  /** A change was saved: the order as it now is (the table and the dialog follow it). */
  onChanged: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
}

/** The column names; the phone layout shows them as labels inside each entry. */
const COLUMNS = ["What", "Amount", "How", "Reference", "Who", "When", "Note"] as const;

/** The section. */
export function OrderLedger({ detail, csrf, onChanged, onSessionEnded }: OrderLedgerProps) {
  const [open, setOpen] = useState<Open | null>(null);
  const [said, setSaid] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  // The button that opened the form: the focus goes back to it (or to the heading, if it is gone).
  const opener = useRef<HTMLElement | null>(null);
  const corrected = new Set(detail.ledger.map((entry) => entry.corrects));

  function show(next: Open) {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setSaid("");
    setOpen(next);
  }

  function close() {
    setOpen(null);
    (opener.current?.isConnected ? opener.current : heading.current)?.focus();
  }

  function done(changed: OrderChanged, words: string) {
    setSaid(`${words} ${changed.order.moneyWords}.`);
    setOpen(null);
    heading.current?.focus();
    onChanged(changed);
  }

  const formProps = { order: detail, csrf, onDone: done, onClose: close, onSessionEnded };
  const [what, amount, how, reference, who, when, note] = COLUMNS;
  return (
    <section aria-labelledby="order-detail-payment">
      <h3 id="order-detail-payment" ref={heading} tabIndex={-1}>
        Payment
      </h3>
      <dl className="order-detail__facts">
        <dt>Customer chose</dt>
        <dd>{PAYMENT_METHODS[detail.paymentMethod] ?? detail.paymentMethod}</dd>
        <dt>Now</dt>
        <dd>
          <SettlementBadge settlement={detail.settlement} words={detail.moneyWords} />
        </dd>
      </dl>
      <table className="ledger-table">
        <caption>Ledger</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={column === amount ? "ledger-table__amount" : undefined}>
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Correct</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.ledger.map((entry) => (
            <tr key={entry.id} className={corrected.has(entry.id) ? "is-corrected" : undefined}>
              <th scope="row" data-label={what}>
                {entryWhat(entry)}
                {corrected.has(entry.id) && <small className="ledger-table__tag"> (corrected)</small>}
              </th>
              <td data-label={amount} className="ledger-table__amount">
                {lineAmount(entry.amount)}
              </td>
              <td data-label={how}>{entry.method ? methodLabel(entry.method) : ""}</td>
              <td data-label={reference}>{entry.reference ?? ""}</td>
              <td data-label={who}>{entryWho(entry.by)}</td>
              <td data-label={when}>
                <time dateTime={entry.at}>{formatDayTime(entry.at)}</time>
              </td>
              <td data-label={note}>{entryNote(entry)}</td>
              <td className="ledger-table__action">
                {entry.correctable && (
                  <button
                    type="button"
                    className="button button--outline button--small"
                    aria-label={`Correct the ${entryWhat(entry).toLowerCase()} of ${formatKsh(Math.abs(entry.amount))}, ${formatDayTime(entry.at)}`}
                    aria-expanded={open?.form === "correct" && open.entry.id === entry.id}
                    onClick={() => show({ form: "correct", entry })}
                  >
                    Correct
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Balance</th>
            <td colSpan={COLUMNS.length}>{balanceLine(detail)}</td>
          </tr>
        </tfoot>
      </table>
      <div className="ledger-actions">
        {detail.owedBack > 0 && (
          <>
            <button
              type="button"
              className="button button--outline button--small"
              aria-expanded={open?.form === "refund"}
              onClick={() => show({ form: "refund" })}
            >
              Refund
            </button>
            <button
              type="button"
              className="button button--outline button--small"
              aria-expanded={open?.form === "credit"}
              onClick={() => show({ form: "credit" })}
            >
              Keep as store credit
            </button>
          </>
        )}
        {detail.balance.charged > 0 && (
          <button
            type="button"
            className="button button--outline button--small"
            aria-expanded={open?.form === "discount"}
            onClick={() => show({ form: "discount" })}
          >
            Discount
          </button>
        )}
      </div>
      {open?.form === "refund" && <RefundForm {...formProps} />}
      {open?.form === "credit" && <CreditForm {...formProps} />}
      {open?.form === "discount" && <DiscountForm {...formProps} />}
      {open?.form === "correct" && <CorrectForm key={open.entry.id} entry={open.entry} {...formProps} />}
      <p className="payments__said" role="status">
        {said}
      </p>
    </section>
  );
}
