// The order dialog's M-PESA: every prompt sent to the customer's phone (who asked, what became of
// it) and every payment M-PESA reported for the order, with a flag on one that did not pay it.
import { dateTimeOrNA } from "../../lib/admin/display";
import { matchedByText, paymentSource, promptStateText } from "../../lib/admin/mpesa";
import type { OrderDetail } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";

/** Who asked for a prompt, in words. */
function askedByText(askedBy: string): string {
  switch (askedBy) {
    case "order":
      return "when the order was placed";
    case "bill":
      return "when the bill was set at pickup";
    case "customer":
      return "by the customer";
    default:
      return `by ${askedBy}`;
  }
}

/** The section; nothing when the order has no prompt and no M-PESA payment. */
export function OrderMpesaSection({ detail }: { detail: OrderDetail }) {
  if (detail.prompts.length === 0 && detail.payments.length === 0) return null;
  return (
    <section aria-labelledby="order-detail-mpesa">
      <h3 id="order-detail-mpesa">M-PESA</h3>
      {detail.prompts.length > 0 && (
        <ul className="order-detail__emails" aria-label="Prompts sent to the phone">
          {detail.prompts.map((prompt) => (
            <li key={prompt.createdAt}>
              <span className="order-detail__email-head">
                <strong>{`Prompt for ${formatKsh(prompt.amount)}`}</strong>
                <span className={`badge badge--${promptTone(prompt.state)}`}>{promptStateText(prompt)}</span>
              </span>
              <span className="order-detail__who">
                {`To ${prompt.phone}, sent ${askedByText(prompt.askedBy)} · `}
                <time dateTime={prompt.createdAt}>{dateTimeOrNA(prompt.createdAt)}</time>
                {prompt.receipt && ` · code ${prompt.receipt}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {detail.payments.length > 0 && (
        <ul className="order-detail__emails" aria-label="Payments M-PESA reported">
          {detail.payments.map((payment) => (
            <li key={payment.receipt}>
              <span className="order-detail__email-head">
                <strong>{`${payment.receipt} · ${formatKsh(payment.amount)}`}</strong>
                {payment.problem &&
                  (payment.checkedAt ? (
                    <span className="badge badge--secondary">Checked</span>
                  ) : (
                    <span className="badge badge--danger">To check</span>
                  ))}
              </span>
              <span className="order-detail__who">
                {`${paymentSource(payment)}${payment.phone ? ` from ${payment.phone}` : ""} · received `}
                <time dateTime={payment.receivedAt}>{dateTimeOrNA(payment.receivedAt)}</time>
                {payment.matchedBy && ` · matched by ${matchedByText(payment.matchedBy)}`}
              </span>
              {payment.problemText && <span className="order-detail__who">{payment.problemText}</span>}
              {payment.checkedBy && <span className="order-detail__who">{`Checked by ${payment.checkedBy}`}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A badge's tone for a prompt's state. */
export function promptTone(state: OrderDetail["prompts"][number]["state"]): string {
  if (state === "paid") return "success";
  if (state === "failed" || state === "cancelled") return "danger";
  return "warning";
}
