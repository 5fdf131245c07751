// One M-PESA payment to check: its code, amount, payer and when it came; unmatched, a form to
// match it to the order it pays (by order ID); flagged, why it did not pay its order and
// "Checked" once staff have dealt with it (refunded it, or recorded the payment another way).
import { type FormEvent, useId, useState } from "react";
import { AdminError, type Failure, failureOf, markPaymentChecked, matchPayment } from "../../lib/admin/api";
import { dateTimeOrNA } from "../../lib/admin/display";
import { paymentSource } from "../../lib/admin/mpesa";
import type { MpesaPayment, PaymentChanged } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";
import { describedBy, Field } from "../Field";
import { AdminAlert } from "./AdminAlert";

interface PaymentToCheckRowProps {
  payment: MpesaPayment;
  csrf: string;
  onChanged: (answer: PaymentChanged) => void;
  onSessionEnded: () => void;
}

/** The row. */
export function PaymentToCheckRow({ payment, csrf, onChanged, onSessionEnded }: PaymentToCheckRowProps) {
  const [orderId, setOrderId] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const flagged = payment.problem !== null;

  async function send(call: () => Promise<PaymentChanged>) {
    if (saving) return;
    setSaving(true);
    setFailure(null);
    setFieldError(undefined);
    try {
      onChanged(await call());
    } catch (error) {
      setSaving(false);
      const field = error instanceof AdminError ? error.fields.orderId : undefined;
      if (field) return setFieldError(field);
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    }
  }

  function onMatch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = orderId.trim().replace(/^#/, "").toUpperCase();
    if (!/^[A-Z0-9]{8}$/.test(typed)) {
      setFieldError("Type the order ID: 8 letters and digits, as the orders table shows it after '#'.");
      return;
    }
    void send(() => matchPayment(payment.receipt, typed, csrf));
  }

  return (
    <li className={flagged ? "awaiting__item is-overdue" : "awaiting__item"}>
      <div className="awaiting__who">
        <strong id={`${id}-code`}>{payment.receipt}</strong> · {formatKsh(payment.amount)}
        {flagged && payment.orderId && ` · order #${payment.orderId}`}
      </div>
      <div className="awaiting__when">
        {paymentSource(payment)}
        {payment.phone && (
          <>
            {" from "}
            <span className="payments__phone">{payment.phone}</span>
          </>
        )}
        {payment.payerName && ` (${payment.payerName})`}
        {payment.billRef && ` · account "${payment.billRef}"`} · received{" "}
        <time dateTime={payment.receivedAt}>{dateTimeOrNA(payment.receivedAt)}</time>
      </div>
      {flagged ? (
        <>
          <p className="payments__problem">{payment.problemText}</p>
          <div className="awaiting__actions">
            <button
              type="button"
              className="button button--outline button--small"
              aria-describedby={`${id}-code`}
              onClick={() => void send(() => markPaymentChecked(payment.receipt, csrf))}
            >
              {saving ? "Saving…" : "Checked"}
            </button>
          </div>
        </>
      ) : (
        <form className="awaiting__move" onSubmit={onMatch} noValidate>
          <Field id={`${id}-order`} label="Order ID it pays" error={fieldError}>
            <input
              id={`${id}-order`}
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={9}
              placeholder="e.g. K7MX2QPD"
              value={orderId}
              onChange={(event) => setOrderId(event.target.value)}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={describedBy(`${id}-order`, false, fieldError)}
            />
          </Field>
          <button type="submit" className="button button--primary button--small" aria-describedby={`${id}-code`}>
            {saving ? "Matching…" : "Match"}
          </button>
        </form>
      )}
      {failure && <AdminAlert failure={failure} />}
    </li>
  );
}
