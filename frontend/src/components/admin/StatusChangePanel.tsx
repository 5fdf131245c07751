// Asked before a status change that cannot be taken lightly: cancelling an order (a reason, and
// whether to text the customer; a paid order's money is then owed back; laundry already collected
// goes back as it is, on a return stop or at the shop), taking a cancellation
// back, and marking an order ready (the rack it hangs on, so that it can be found). Under the order's row, like the payment panel; Escape or "Keep it" closes it unchanged.
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { type Failure, failureOf, setOrderStatus } from "../../lib/admin/api";
import { received } from "../../lib/admin/money";
import type { AdminOrder, OrderChanged, SlotOption } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";
import { statusLabel } from "../../lib/tracking";
import { AdminAlert } from "./AdminAlert";
import { Field } from "../Field";

interface StatusChangePanelProps {
  id: string;
  order: AdminOrder;
  /** The status chosen in the dropdown: `cancelled`, or another one for a cancelled order. */
  next: string;
  /** The racks a ready order hangs on. */
  racks: string[];
  /** The windows ahead, for the return of collected laundry. */
  slots: SlotOption[];
  csrf: string;
  onSaved: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
  onClose: () => void;
}

/** The longest reason the server keeps. */
const MAX_REASON = 200;

/** The panel. */
export function StatusChangePanel({
  id,
  order,
  next,
  racks,
  slots,
  csrf,
  onSaved,
  onSessionEnded,
  onClose,
}: StatusChangePanelProps) {
  const cancelling = next === "cancelled";
  const readying = next === "ready";
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [rack, setRack] = useState("");
  const [rackError, setRackError] = useState<string | null>(null);
  const rackRef = useRef<HTMLSelectElement>(null);
  const rackId = useId();
  // Collected laundry of a cancelled order goes back: a window, or "shop".
  const collected = cancelling && ["picked-up", "in-progress", "ready"].includes(order.status);
  const [back, setBack] = useState("");
  const [backError, setBackError] = useState<string | null>(null);
  const backRef = useRef<HTMLSelectElement>(null);
  const backId = useId();
  const [tell, setTell] = useState(true);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const tellId = useId();

  useEffect(() => (readying ? rackRef.current?.focus() : first.current?.focus()), [readying]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const trimmed = reason.trim();
    if (cancelling && trimmed === "") {
      setReasonError("Say why the order is cancelled (the customer asked, a duplicate, …).");
      first.current?.focus();
      return;
    }
    if (collected && back === "") {
      setBackError("Choose when the laundry goes back to the customer, or that they collect it at the shop.");
      backRef.current?.focus();
      return;
    }
    if (readying && rack === "") {
      setRackError("Choose the rack where the order hangs.");
      rackRef.current?.focus();
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      onSaved(
        await setOrderStatus(order.id, next, csrf, {
          notifyCustomer: tell,
          ...(cancelling ? { reason: trimmed } : {}),
          ...(collected ? { returnStop: back } : {}),
          ...(readying ? { rack } : {}),
        }),
      );
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
      setSaving(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === "Escape") onClose();
  }

  // Money received is owed back once the order costs nothing; taken back, it pays the bill again.
  const kept = received(order.balance);
  return (
    <form id={id} className="payment-panel status-panel" onSubmit={save} onKeyDown={onKeyDown} noValidate>
      <fieldset>
        <legend>
          {cancelling
            ? `Cancel order ${order.id}?`
            : order.status === "cancelled"
              ? `Take back the cancellation of order ${order.id}?`
              : `Mark order ${order.id} ready?`}
        </legend>
        {cancelling ? (
          <>
            <p>
              {collected
                ? "The laundry was collected: it goes back as it is, on a return stop (nothing to collect) or at the shop."
                : "Its pickup and delivery leave the runs."}
              {kept > 0 && ` ${formatKsh(kept)} was paid: it will be owed back to the customer.`}
            </p>
            <Field
              id={reasonId}
              label="Reason"
              hint="Kept with the order; the customer is not shown it."
              error={reasonError ?? undefined}
            >
              <input
                ref={first}
                id={reasonId}
                type="text"
                maxLength={MAX_REASON}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  setReasonError(null);
                }}
                aria-invalid={reasonError ? true : undefined}
              />
            </Field>
          </>
        ) : order.status !== "cancelled" ? null : (
          <p>
            {`It goes back to ${statusLabel(next)}. Its pickup and delivery come back if their windows are still ahead; otherwise they wait on the dashboard for new windows.`}
            {order.owedBack > 0 &&
              ` Its charges come back: the ${formatKsh(order.owedBack)} owed back counts against the bill again.`}
          </p>
        )}
        {collected && (
          <Field
            id={backId}
            label="The laundry goes back"
            hint="The return is a stop on the run and the valet page, like a delivery."
            error={backError ?? undefined}
          >
            <select
              ref={backRef}
              id={backId}
              value={back}
              onChange={(event) => {
                setBack(event.target.value);
                setBackError(null);
              }}
              aria-invalid={backError ? true : undefined}
            >
              <option value="">Choose when</option>
              <option value="shop">The customer collects it at the shop</option>
              {slots.map((slot) => (
                <option key={slot.value} value={slot.value}>
                  {`Return stop, ${slot.label}`}
                </option>
              ))}
            </select>
          </Field>
        )}
        {readying && (
          <Field
            id={rackId}
            label="Rack"
            hint="Where it hangs until it goes out: the rack audit and the tags find it there."
            error={rackError ?? undefined}
          >
            <select
              ref={rackRef}
              id={rackId}
              value={rack}
              onChange={(event) => {
                setRack(event.target.value);
                setRackError(null);
              }}
              aria-invalid={rackError ? true : undefined}
            >
              <option value="">Choose a rack</option>
              {racks.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <label className="choice" htmlFor={tellId}>
          <input
            ref={cancelling ? undefined : first}
            id={tellId}
            type="checkbox"
            checked={tell}
            onChange={(event) => setTell(event.target.checked)}
          />{" "}
          Text the customer
        </label>
      </fieldset>
      {failure && <AdminAlert failure={failure} />}
      <div className="payment-panel__actions">
        <button type="submit" className={cancelling ? "button button--danger" : "button button--primary"}>
          {saving
            ? "Saving…"
            : cancelling
              ? "Cancel order"
              : order.status === "cancelled"
                ? "Take back the cancellation"
                : "Mark ready"}
        </button>
        <button type="button" className="button button--outline" onClick={onClose}>
          Keep it
        </button>
      </div>
    </form>
  );
}
