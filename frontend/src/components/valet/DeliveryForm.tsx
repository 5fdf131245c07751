// "Delivered": how the customer paid. Cash must be the bill; an M-PESA code pays one order only;
// "Already paid" is offered once the order is paid; a KSh 0 order (a free re-clean) has nothing to pay.
import { describedBy, Field } from "../Field";
import { formatKsh } from "../../lib/format";
import type { ValetStop } from "../../lib/generated/ValetStop";
import type { SentBack } from "../../lib/valet";
import { type FormContext, StopForm } from "./StopForm";

/** The payment form of a delivery stop. */
export function DeliveryForm({ stop, context, sent }: { stop: ValetStop; context: FormContext; sent: SentBack }) {
  const id = (name: string) => `${stop.id}-${name}`;
  const paid = stop.paymentStatus === "paid";
  const chosen = sent.values.paid ?? (paid ? "already" : "");
  const choice = (value: string, label: string) => (
    <label className="choice">
      <input type="radio" name="paid" value={value} defaultChecked={chosen === value} required />
      {label}
    </label>
  );
  if (!paid && stop.total <= 0) {
    // A free re-clean: nothing to collect, nothing to record.
    return (
      <StopForm stopId={stop.id} action="delivered" context={context} button="Delivered">
        <input type="hidden" name="paid" value="none" />
        <p className="stop__note">{`Nothing to pay: ${formatKsh(0)}.`}</p>
      </StopForm>
    );
  }
  return (
    <StopForm stopId={stop.id} action="delivered" context={context} button="Delivered">
      <fieldset
        className={sent.errors.paid ? "field field--invalid" : "field"}
        aria-describedby={describedBy(id("paid"), false, sent.errors.paid)}
      >
        <legend>Payment</legend>
        {paid && choice("already", "Already paid")}
        {choice("cash", "Cash")}
        {choice("mpesa", "M-PESA")}
        {sent.errors.paid && (
          <p className="field__error" id={`${id("paid")}-error`}>
            {sent.errors.paid}
          </p>
        )}
      </fieldset>
      <Field
        id={id("cash")}
        label="Cash collected (KSh)"
        hint={`Bill: ${formatKsh(stop.total)}`}
        error={sent.errors.cash}
      >
        <input
          id={id("cash")}
          name="cash"
          type="number"
          inputMode="numeric"
          min={0}
          defaultValue={sent.values.cash ?? ""}
          aria-invalid={sent.errors.cash ? true : undefined}
          aria-describedby={describedBy(id("cash"), true, sent.errors.cash)}
        />
      </Field>
      <Field id={id("mpesa")} label="M-PESA code" error={sent.errors.mpesaCode}>
        <input
          id={id("mpesa")}
          name="mpesaCode"
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={12}
          defaultValue={sent.values.mpesaCode ?? ""}
          aria-invalid={sent.errors.mpesaCode ? true : undefined}
          aria-describedby={describedBy(id("mpesa"), false, sent.errors.mpesaCode)}
        />
      </Field>
    </StopForm>
  );
}
