// "Delivered": how the customer paid what is still to collect (the ledger's `toCollect`). Cash is
// prefilled with it, and less is a part payment; an M-PESA code pays one order only. With nothing
// owed the form only says so: the order was paid before, or (a free re-clean) costs nothing.
import { describedBy, Field } from "../Field";
import { formatKsh } from "../../lib/format";
import type { ValetStop } from "../../lib/generated/ValetStop";
import { handOverText, type SentBack } from "../../lib/valet";
import { type FormContext, StopForm } from "./StopForm";

/** The count handed over, when the order's items were taken in with tags: a short count opens a
 * claim for the shop to answer. */
function CountFields({ stop, sent }: { stop: ValetStop; sent: SentBack }) {
  if (stop.items <= 0) return null;
  const id = (name: string) => `${stop.id}-${name}`;
  const bags = stop.handOverBags;
  return (
    <fieldset className="stop__count">
      <legend>{`${handOverText(stop.items, bags)}: count them with the customer`}</legend>
      <Field id={id("count-items")} label="Items counted" error={sent.errors.countItems}>
        <input
          id={id("count-items")}
          name="countItems"
          type="number"
          inputMode="numeric"
          min={0}
          required
          defaultValue={sent.values.countItems ?? ""}
          aria-invalid={sent.errors.countItems ? true : undefined}
          aria-describedby={describedBy(id("count-items"), false, sent.errors.countItems)}
        />
      </Field>
      <Field id={id("count-bags")} label="Bags counted" error={sent.errors.countBags}>
        <input
          id={id("count-bags")}
          name="countBags"
          type="number"
          inputMode="numeric"
          min={0}
          required
          defaultValue={sent.values.countBags ?? ""}
          aria-invalid={sent.errors.countBags ? true : undefined}
          aria-describedby={describedBy(id("count-bags"), false, sent.errors.countBags)}
        />
      </Field>
    </fieldset>
  );
}

/** The payment form of a delivery stop. */
export function DeliveryForm({ stop, context, sent }: { stop: ValetStop; context: FormContext; sent: SentBack }) {
  const id = (name: string) => `${stop.id}-${name}`;
  if (stop.toCollect <= 0) {
    // Nothing owed: a free re-clean has nothing to pay, a paid order was paid before the door.
    const free = stop.settlement === "nothing-to-pay";
    return (
      <StopForm stopId={stop.id} action="delivered" context={context} button="Delivered">
        <CountFields stop={stop} sent={sent} />
        <input type="hidden" name="paid" value={free ? "none" : "already"} />
        <p className="stop__note">{free ? `Nothing to pay: ${formatKsh(0)}.` : "Already paid: nothing to collect."}</p>
      </StopForm>
    );
  }
  const choice = (value: string, label: string) => (
    <label className="choice">
      <input type="radio" name="paid" value={value} defaultChecked={sent.values.paid === value} required />
      {label}
    </label>
  );
  return (
    <StopForm stopId={stop.id} action="delivered" context={context} button="Delivered">
      <CountFields stop={stop} sent={sent} />
      <fieldset
        className={sent.errors.paid ? "field field--invalid" : "field"}
        aria-describedby={describedBy(id("paid"), false, sent.errors.paid)}
      >
        <legend>Payment</legend>
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
        hint={`To collect: ${formatKsh(stop.toCollect)}. Less is a part payment: the rest stays owed.`}
        error={sent.errors.cash}
      >
        <input
          id={id("cash")}
          name="cash"
          type="number"
          inputMode="numeric"
          min={0}
          max={stop.toCollect}
          defaultValue={sent.values.cash ?? String(stop.toCollect)}
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
