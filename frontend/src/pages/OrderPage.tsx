// /order, 'Place Your Order' (spec section 2): three field groups and the Order Summary. A real
// form with named fields (spec section 3, plus `piece.<id>` per item), so it posts even before or
// without JavaScript; once hydrated it sends JSON with an Idempotency-Key, so a double click or a
// retry stores one order. The fields are uncontrolled and the page reads the form: what the browser
// restores on Back is what the customer sees and what the summary prices.
import { type FormEvent, useEffect, useEffectEvent, useRef, useState } from "react";
import { OrderFields } from "../components/OrderFields";
import { OrderSummary } from "../components/OrderSummary";
import { useAddToOrder } from "../lib/addToOrder";
import { addition, anyPieceEntered, orderBody, quote } from "../lib/order";
import { dayOf, findOption, initialPickup, isRush, withRush, withSlots } from "../lib/pickup";
import { clearDraft, fillForm, loadDraft, saveDraft } from "../lib/orderDraft";
import { useMessageInView } from "../lib/useMessageInView";
import { formValues, newIdempotencyKey, postJson } from "../lib/submit";
import type { OrderPageProps } from "../lib/generated/OrderPageProps";
import type { SlotsAnswer } from "../lib/generated/SlotsAnswer";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Spec section 8: the alert when the order could not be stored. */
const SAVE_FAILED = "There was an error saving your order. Please try again.";
/** After an order from this form was stored and the form was then changed. */
const ALREADY_PLACED =
  "This order was already placed with the details you sent first. To place another order with these details, press Place Order again.";

/** Props of the order page: the catalogue, the pickup windows, and the form sent back after a plain
 * post with mistakes (or opened by `?add=` with an item in it). */
export type OrderProps = SharedProps & OrderPageProps;

/** Title and description for the document shell. */
export function meta(props: OrderProps): PageMeta {
  return {
    title: `Place Your Order: Free Pickup in Nairobi | ${props.business.name}`,
    description:
      "Book a laundry, ironing, dry-cleaning or bedding pickup in Nairobi. Pay by M-PESA or on delivery; we confirm within 30 minutes.",
    status: props.form?.status,
  };
}

/** The form's values without the empty ones the server may send as null. */
function startingValues(values: Readonly<Record<string, string | null>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** Sets a field of the form as if the customer had typed it (the fields are uncontrolled). */
function setField(form: HTMLFormElement, name: string, value: string): HTMLElement | null {
  const field = fieldNamed(form, name);
  if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) return null;
  field.value = value;
  return field;
}

/** The control with this name (the first of a radio group). */
function fieldNamed(form: HTMLFormElement, name: string): HTMLElement | null {
  const found = form.elements.namedItem(name);
  const first = found instanceof RadioNodeList ? found[0] : found;
  return first instanceof HTMLElement ? first : null;
}

/** `text` with its %-escapes decoded; null when they are not valid. */
function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Shows a field that may sit in the closed pieces section, and puts the cursor in it. */
function reveal(field: HTMLElement) {
  const section = field.closest("details");
  if (section) section.open = true;
  field.focus({ preventScroll: true });
  field.scrollIntoView({ block: "center" });
}

/** The order page. */
export default function OrderPage(props: OrderProps) {
  const initial = props.form?.values ?? {};
  // What the form holds, read from it: the summary follows it. The pickup select opens on the
  // window it shows (see `initialPickup`).
  const [values, setValues] = useState<Record<string, string>>(() => ({
    ...startingValues(initial),
    pickup: initialPickup(props.pickup, initial.pickup),
  }));
  // The windows offered; brought up to date for a day when a booking in it was refused.
  const [choices, setChoices] = useState(props.pickup);
  const [errors, setErrors] = useState<Record<string, string>>(props.form?.errors ?? {});
  const [alert, setAlert] = useState<string | null>(props.form?.alert ?? null);
  const [sending, setSending] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const form = useRef<HTMLFormElement>(null);
  const alertElement = useMessageInView<HTMLDivElement>(alert);
  const current = withRush(quote(props, values), choices.rushLine, isRush(values.rush));
  // Items by the piece may be ordered alone: then the service and kg are not required.
  const piecesAlone = anyPieceEntered(values);
  // Fixed from the props (the same on the server and on hydration); later the customer opens and
  // closes the section, or `reveal` opens it for an added item or a wrong count.
  const piecesOpen =
    anyPieceEntered(initial) || Object.keys(props.form?.errors ?? {}).some((name) => name.startsWith("piece."));
  /** Reads what the customer changed, and keeps it as the tab's draft. */
  const readForm = () => {
    if (!form.current) return;
    const found = formValues(form.current);
    setValues(found);
    saveDraft(found);
  };
  /** Puts the tab's draft back into a form opened afresh (not one sent back with mistakes, whose
   * values are the server's), with the item of `?add=` added to it rather than in place of it. */
  const resumeDraft = useEffectEvent(() => {
    const element = form.current;
    const sentBack = Object.keys(props.form?.errors ?? {}).length > 0 || props.form?.alert;
    if (!element || sentBack) return;
    const added = /[?&]add=([^&#]*)/.exec(window.location.search)?.[1];
    const draft = loadDraft();
    if (draft) {
      const item = added ? decodedOrNull(added) : null;
      const change = item ? addition(props.priceList, draft, item) : null;
      fillForm(element, { ...draft, ...change });
    }
    if (added !== undefined) {
      // A reload of this page would add the item once more.
      window.history.replaceState(window.history.state, "", "/order");
      saveDraft(formValues(element));
    }
  });
  /** Takes what the browser restored, and shows restored counts (the browser keeps no open state). */
  const restored = () => {
    if (!form.current) return;
    const found = formValues(form.current);
    setValues(found);
    const section = form.current.querySelector("details");
    if (section && anyPieceEntered(found)) section.open = true;
  };

  useEffect(() => {
    // One key per order being filled in: retries of it, or a double click, store one order. Made once
    // hydrated, so that the server's markup (no key) and the first render on the client match. The
    // form is read for what the browser restored (Back after an order, a reload) before hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- values only the browser has
    setIdempotencyKey(newIdempotencyKey());
    resumeDraft();
    restored();
    // Back from the confirmation may show this very page again (back/forward cache): it was left
    // while sending, and the browser may have restored the fields.
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setSending(false);
      restored();
    };
    window.addEventListener("pageshow", shown);
    return () => window.removeEventListener("pageshow", shown);
  }, []);

  // "Add to order" in the header search, used on this page: the item goes into this form.
  useAddToOrder((itemId) => {
    const element = form.current;
    const change = element ? addition(props.priceList, formValues(element), itemId) : null;
    if (!element || !change) return false;
    const changed = Object.entries(change).map(([name, text]) => setField(element, name, text));
    readForm();
    // Straight to the next thing to type: the count just added, or the kg of the chosen service.
    const next = "serviceType" in change ? element.elements.namedItem("quantity") : changed[0];
    if (next instanceof HTMLElement) reveal(next);
    return true;
  });

  /** After a refused pickup: the chosen day's windows as they are now, and no window chosen if
   * that one cannot be had, so that the customer picks another (a disabled option is not sent). */
  async function refreshDay(chosen: string) {
    const day = dayOf(chosen);
    if (!day) return;
    let answer: SlotsAnswer;
    try {
      const response = await fetch(`/api/slots?date=${encodeURIComponent(day)}`, {
        headers: { Accept: "application/json" },
      });
      if (!response.ok) return;
      answer = (await response.json()) as SlotsAnswer;
    } catch {
      // The message next to the field already says what to do.
      return;
    }
    if (!answer.windows.some((window) => window.value === chosen && window.open) && form.current) {
      setField(form.current, "pickup", "");
      readForm();
    }
    setChoices((offered) => withSlots(offered, answer));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setAlert(null);
    const sent = formValues(event.currentTarget);
    const body = orderBody(sent);
    const result = await postJson<{ id: string }>("/api/orders", body, { "Idempotency-Key": idempotencyKey });
    if (result.kind === "ok") {
      // Coming back to this page (the back button keeps it as it was) starts a new order.
      setIdempotencyKey(newIdempotencyKey());
      clearDraft();
      window.location.assign(`/confirmation?ref=${encodeURIComponent(result.body.id)}`);
      return;
    }
    setSending(false);
    if (result.kind === "invalid") {
      setErrors(result.fields);
      if (result.fields.pickup && sent.pickup) void refreshDay(sent.pickup);
      const first = Object.keys(result.fields)[0];
      const field = first && form.current ? fieldNamed(form.current, first) : null;
      if (field) reveal(field);
    } else if (result.status === 409) {
      // This form's order was stored already, with other details: sending it again places a new one.
      setErrors({});
      setIdempotencyKey(newIdempotencyKey());
      setAlert(ALREADY_PLACED);
    } else {
      setErrors({});
      setAlert(result.message ?? SAVE_FAILED);
    }
  }

  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Place Your Order</h1>
          <p className="section__lead">Free pickup and delivery. We confirm your pickup time within 30 minutes.</p>
        </div>
      </section>
      <section className="section">
        <div className="container">
          <form
            ref={form}
            className="form order-form"
            method="post"
            action="/order"
            onSubmit={submit}
            onChange={readForm}
          >
            <div className="card order-form__fields">
              {alert && (
                <div ref={alertElement} className="alert alert--error" role="alert" tabIndex={-1}>
                  {alert}
                </div>
              )}
              <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
              <OrderFields
                services={props.services}
                priceList={props.priceList}
                choices={choices}
                initial={initial}
                errors={errors}
                piecesAlone={piecesAlone}
                piecesOpen={piecesOpen}
                piecesChosen={current?.lines.filter((line) => line.kind === "piece").length ?? 0}
                businessPhone={props.business.phone}
              />
            </div>
            <OrderSummary
              quote={current}
              services={props.services}
              phone={values.phone ?? ""}
              payNow={values.paymentMethod !== "pay-delivery"}
              prompts={props.prompts}
              till={props.business.mpesaTill}
              firstOrderDiscount={props.firstOrderDiscount ?? null}
              pickup={findOption(choices, values.pickup)}
              rush={isRush(values.rush)}
            />
            <div className="order-form__submit">
              <button type="submit" className="button button--primary button--large button--block" disabled={sending}>
                {sending ? "Placing your order…" : "Place Order"}
              </button>
            </div>
          </form>
        </div>
      </section>
    </>
  );
}
