// The inline panel of an order's 'Payment' button: record a till payment with its M-PESA code, a
// cash payment, or set the order back to unpaid.
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { AdminError, type Failure, failureOf, setOrderPayment } from "../../lib/admin/api";
import { isMpesaCode, normaliseMpesaCode } from "../../lib/admin/display";
import type { AdminOrder, OrderChanged, PaymentChange } from "../../lib/admin/types";
import { describedBy, Field } from "../Field";
import { AdminAlert } from "./AdminAlert";

type Choice = "mpesa" | "cash" | "unpaid";

const CODE_SHAPE = "An M-PESA code is 10 letters and digits, like QJK3L5X9TZ.";

interface PaymentPanelProps {
  id: string;
  order: AdminOrder;
  csrf: string;
  onSaved: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
  onClose: () => void;
}

/** What the panel starts with: the order's payment as recorded, or the likely one for an unpaid order. */
function initialChoice(order: AdminOrder): Choice {
  if (order.paymentStatus === "paid") return order.paidVia === "cash" ? "cash" : "mpesa";
  return order.paymentMethod === "pay-delivery" ? "cash" : "mpesa";
}

/** The panel; focus moves into it when it opens, and Escape closes it. */
export function PaymentPanel({ id, order, csrf, onSaved, onSessionEnded, onClose }: PaymentPanelProps) {
  const [choice, setChoice] = useState<Choice>(initialChoice(order));
  const [code, setCode] = useState(order.mpesaCode ?? "");
  const [codeError, setCodeError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const codeId = `${id}-code`;

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>("input[type=radio]:checked")?.focus();
  }, []);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    let change: PaymentChange;
    if (choice === "mpesa") {
      const mpesaCode = normaliseMpesaCode(code);
      if (!isMpesaCode(mpesaCode)) {
        setCodeError(CODE_SHAPE);
        codeInput.current?.focus();
        return;
      }
      change = { paymentStatus: "paid", paidVia: "mpesa", mpesaCode };
    } else {
      change = choice === "cash" ? { paymentStatus: "paid", paidVia: "cash" } : { paymentStatus: "unpaid" };
    }
    setSaving(true);
    setFailure(null);
    setCodeError(undefined);
    try {
      onSaved(await setOrderPayment(order.id, change, csrf));
    } catch (error) {
      setSaving(false);
      const fieldError = error instanceof AdminError ? error.fields.mpesaCode : undefined;
      if (fieldError) {
        setCodeError(fieldError);
        codeInput.current?.focus();
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
  return (
    <form ref={form} id={id} className="payment-panel" onSubmit={save} onKeyDown={onKeyDown} noValidate>
      <fieldset>
        <legend>Payment of order {order.id}</legend>
        <div className="payment-panel__choices">
          {option("mpesa", "Paid by M-PESA")}
          {option("cash", "Paid in cash")}
          {option("unpaid", "Not paid")}
        </div>
        {choice === "mpesa" && (
          <Field
            id={codeId}
            label="M-PESA code"
            hint="10 letters and digits, from the customer's M-PESA message."
            error={codeError}
          >
            <input
              ref={codeInput}
              id={codeId}
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={14}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={codeError ? true : undefined}
              aria-describedby={describedBy(codeId, true, codeError)}
            />
          </Field>
        )}
      </fieldset>
      {failure && <AdminAlert failure={failure} />}
      <div className="payment-panel__actions">
        {/* Not disabled while saving: that would drop the keyboard focus; a second press is ignored. */}
        <button type="submit" className="button button--primary">
          {saving ? "Saving…" : "Save payment"}
        </button>
        <button type="button" className="button button--outline" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
