// The inline panel of an order's 'Payment' button: a payment taken by hand, in cash or by an M-PESA
// code, of any amount (prefilled with what is still to pay; less is a part payment, more becomes
// the customer's credit). It adds an entry to the order's ledger; a mistake is corrected from the
// ledger in the order's detail, never by setting the order back to unpaid.
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { AdminError, type Failure, failureOf, recordPayment } from "../../lib/admin/api";
import { isMpesaCode, normaliseMpesaCode } from "../../lib/admin/display";
import { parseAmount } from "../../lib/admin/money";
import type { AdminOrder, OrderChanged } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";
import { describedBy, Field } from "../Field";
import { AdminAlert } from "./AdminAlert";

type Choice = "mpesa" | "cash";

/** The panel's fields that the server may find wrong. */
type Errors = Partial<Record<"amount" | "mpesaCode" | "takenBy", string>>;

const CODE_SHAPE = "An M-PESA code is 10 letters and digits, like QJK3L5X9TZ.";

interface PaymentPanelProps {
  id: string;
  order: AdminOrder;
  csrf: string;
  onSaved: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
  onClose: () => void;
}

/** The panel; focus moves into it when it opens, and Escape closes it. */
export function PaymentPanel({ id, order, csrf, onSaved, onSessionEnded, onClose }: PaymentPanelProps) {
  const [choice, setChoice] = useState<Choice>(order.paymentMethod === "pay-delivery" ? "cash" : "mpesa");
  const [amount, setAmount] = useState(order.toPay > 0 ? String(order.toPay) : "");
  const [code, setCode] = useState("");
  const [takenBy, setTakenBy] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const amountId = `${id}-amount`;
  const codeId = `${id}-code`;
  const takerId = `${id}-taken-by`;

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>("input[type=radio]:checked")?.focus();
  }, []);

  /** Shows the fields' messages and moves the focus to the first wrong one. */
  function showErrors(found: Errors) {
    setErrors(found);
    const first = found.amount ? amountId : found.mpesaCode ? codeId : takerId;
    document.getElementById(first)?.focus();
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found: Errors = {};
    const typed = parseAmount(amount);
    if ("error" in typed) found.amount = typed.error;
    const mpesaCode = normaliseMpesaCode(code);
    if (choice === "mpesa" && !isMpesaCode(mpesaCode)) found.mpesaCode = CODE_SHAPE;
    if ("error" in typed || found.mpesaCode) return showErrors(found);
    setSaving(true);
    setFailure(null);
    setErrors({});
    try {
      const body =
        choice === "mpesa"
          ? { method: choice, amount: typed.amount, mpesaCode }
          : { method: choice, amount: typed.amount, takenBy: takenBy.trim() || undefined };
      onSaved(await recordPayment(order.id, body, csrf));
    } catch (error) {
      setSaving(false);
      const fields = error instanceof AdminError ? error.fields : {};
      if (fields.amount || fields.mpesaCode || fields.takenBy) {
        showErrors({ amount: fields.amount, mpesaCode: fields.mpesaCode, takenBy: fields.takenBy });
        return;
      }
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    }
  }

  const option = (value: Choice, label: string) => (
    <label className="choice">
      <input
        type="radio"
        name={`${id}-choice`}
        value={value}
        checked={choice === value}
        onChange={() => setChoice(value)}
      />{" "}
      {label}
    </label>
  );
  const owes =
    order.toPay > 0 ? `${order.moneyWords}.` : `${order.moneyWords}. Money received now becomes the customer's credit.`;
  return (
    <form ref={form} id={id} className="payment-panel" onSubmit={save} onKeyDown={onKeyDown} noValidate>
      <fieldset>
        <legend>Payment of order {order.id}</legend>
        <p className="payment-panel__lead">{owes}</p>
        <div className="payment-panel__choices">
          {option("cash", "Paid in cash")}
          {option("mpesa", "Paid by M-PESA")}
        </div>
        <div className="payment-panel__fields">
          <Field
            id={amountId}
            label="Amount received (KSh)"
            hint={order.toPay > 0 ? `${formatKsh(order.toPay)} is still to pay; less is a part payment.` : undefined}
            error={errors.amount}
          >
            <input
              id={amountId}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={describedBy(amountId, order.toPay > 0, errors.amount)}
            />
          </Field>
          {choice === "mpesa" && (
            <Field
              id={codeId}
              label="M-PESA code"
              hint="10 letters and digits, from the customer's M-PESA message. A code M-PESA reported is entered with its own amount."
              error={errors.mpesaCode}
            >
              <input
                id={codeId}
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={14}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                aria-invalid={errors.mpesaCode ? true : undefined}
                aria-describedby={describedBy(codeId, true, errors.mpesaCode)}
              />
            </Field>
          )}
          {choice === "cash" && (
            <Field
              id={takerId}
              label="Taken by (optional)"
              hint="Leave empty if you took the cash. If a valet took it, their sign-in e-mail: it counts in their cash-up."
              error={errors.takenBy}
            >
              <input
                id={takerId}
                type="email"
                autoComplete="off"
                spellCheck={false}
                maxLength={254}
                value={takenBy}
                onChange={(event) => setTakenBy(event.target.value)}
                aria-invalid={errors.takenBy ? true : undefined}
                aria-describedby={describedBy(takerId, true, errors.takenBy)}
              />
            </Field>
          )}
        </div>
        <p className="payment-panel__note">A payment entered by mistake is corrected from the order&apos;s ledger.</p>
      </fieldset>
      {failure && <AdminAlert failure={failure} />}
      <div className="payment-panel__actions">
        {/* Not disabled while saving: that would drop the keyboard focus; a second press is ignored. */}
        <button type="submit" className="button button--primary">
          {saving ? "Saving…" : "Record payment"}
        </button>
        <button type="button" className="button button--outline" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
