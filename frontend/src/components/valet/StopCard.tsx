// One stop of the run: when, who, where (call, WhatsApp, map), the bill, the newest M-PESA prompt,
// and its forms.
import { promptLine } from "../../lib/admin/mpesa";
import { formatKsh } from "../../lib/format";
import type { PriceItem } from "../../lib/generated/PriceItem";
import type { StopFormError } from "../../lib/generated/StopFormError";
import type { ValetStop } from "../../lib/generated/ValetStop";
import { lineText, sentBack, stateText } from "../../lib/valet";
import { DeliveryForm } from "./DeliveryForm";
import { NotHomeForm } from "./NotHomeForm";
import { PickupForm } from "./PickupForm";
import { type FormContext, StopForm } from "./StopForm";

/** A stop's card. */
export function StopCard({
  stop,
  context,
  formError,
  items,
}: {
  stop: ValetStop;
  context: FormContext;
  formError: StopFormError | null;
  items: PriceItem[];
}) {
  const kind = stop.kind === "pickup" ? "Pickup" : stop.returning ? "Return" : "Delivery";
  // Why the last form for this stop was refused as a whole (whichever form it was).
  const refusal = formError?.stopId === stop.id ? formError.message : null;
  return (
    <li className={`stop stop--${stop.state}`} id={`stop-${stop.id}`}>
      <h2 className="stop__title">
        {`${stop.position !== null ? `${stop.position}. ` : ""}${kind} ${stop.window} `}
        <span className="stop__order">{`#${stop.orderId}`}</span>
      </h2>
      <p className="stop__state">
        <strong>{stateText(stop)}</strong>
        {`${stop.eta ? ` · ETA ${stop.eta}` : ""}${stop.valet ? ` · ${stop.valet}` : ""}`}
      </p>
      <p className="stop__who">{stop.customerName}</p>
      {stop.returning && (
        <p className="stop__note">
          The order was cancelled: hand the laundry back as it is. There is nothing to collect.
        </p>
      )}
      <p>
        {stop.location}
        {stop.landmark && (
          <>
            <br />
            {`Landmark: ${stop.landmark}`}
          </>
        )}
      </p>
      {stop.instructions && <p className="stop__note">{`Instructions: ${stop.instructions}`}</p>}
      <p className="stop__links">
        <a className="button button--light" href={stop.callLink}>
          {`Call ${stop.phone}`}
        </a>
        <a className="button button--light" href={stop.whatsappLink}>
          WhatsApp
        </a>
        <a className="button button--light" href={stop.mapLink}>
          {stop.pinned ? "Map (pin)" : "Map"}
        </a>
      </p>
      <ul className="bill">
        {stop.lines.map((line, index) => (
          <li key={index}>
            <span>{lineText(line)}</span>
            <span>{formatKsh(line.amount)}</span>
          </li>
        ))}
        <li className="bill__total">
          <span>{stop.bags !== null ? `Bill, ${stop.bags} bag${stop.bags === 1 ? "" : "s"}` : "Bill"}</span>
          <span>{formatKsh(stop.total)}</span>
        </li>
        {stop.estimate !== stop.total && (
          <li className="bill__estimate">
            <span>Estimate</span>
            <span>{formatKsh(stop.estimate)}</span>
          </li>
        )}
      </ul>
      <p className="stop__pay">{stop.moneyWords}</p>
      {/* At a pickup only a Pay Now order's prompt matters (the bill's, set at the door). */}
      {stop.prompt && (stop.kind === "delivery" || stop.paymentMethod === "pay-now") && (
        <p className="stop__prompt">{promptLine(stop.prompt)}</p>
      )}
      {refusal && (
        <p className="note note--error" role="alert">
          {refusal}
        </p>
      )}
      {stop.actions.includes("on-my-way") && (
        <StopForm stopId={stop.id} action="on-my-way" context={context} button="On my way" />
      )}
      {stop.actions.includes("picked-up") && (
        <PickupForm stop={stop} context={context} sent={sentBack(formError, stop.id, "picked-up")} items={items} />
      )}
      {stop.actions.includes("prompt") && (
        <StopForm
          stopId={stop.id}
          action="prompt"
          context={context}
          button={stop.prompt ? "Send M-PESA prompt again" : "Send M-PESA prompt"}
        >
          <p className="stop__hint">{`The customer's phone asks for ${formatKsh(stop.toCollect)}; they enter their M-PESA PIN.`}</p>
        </StopForm>
      )}
      {stop.actions.includes("delivered") && (
        <DeliveryForm stop={stop} context={context} sent={sentBack(formError, stop.id, "delivered")} />
      )}
      {stop.actions.includes("not-home") && (
        <NotHomeForm stop={stop} context={context} sent={sentBack(formError, stop.id, "not-home")} />
      )}
    </li>
  );
}
