// /order, 'Place Your Order' (spec section 2): three field groups and the Order Summary. A real
// form with named fields (spec section 3), so it posts even before or without JavaScript; once
// hydrated it sends JSON with an Idempotency-Key, so a double click or a retry stores one order.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { describedBy, Field } from "../components/Field";
import { OrderSummary } from "../components/OrderSummary";
import { formatKsh } from "../lib/format";
import { MAX_QUANTITY_KG, quote } from "../lib/order";
import { useMessageInView } from "../lib/useMessageInView";
import { formValues, newIdempotencyKey, postJson } from "../lib/submit";
import type { OrderPageProps } from "../lib/generated/OrderPageProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Spec section 8: the alert when the order could not be stored. */
const SAVE_FAILED = "There was an error saving your order. Please try again.";
/** After an order from this form was stored and the form was then changed. */
const ALREADY_PLACED =
  "This order was already placed with the details you sent first. To place another order with these details, press Place Order again.";

/** Props of the order page: the services, and the form sent back after a plain post with mistakes. */
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

/** The order page. */
export default function OrderPage(props: OrderProps) {
  const initial = props.form?.values ?? {};
  const value = (name: string) => initial[name] ?? "";
  const [serviceId, setServiceId] = useState(value("serviceType"));
  const [quantity, setQuantity] = useState(value("quantity"));
  const [phone, setPhone] = useState(value("phone"));
  const [errors, setErrors] = useState<Record<string, string>>(props.form?.errors ?? {});
  const [alert, setAlert] = useState<string | null>(props.form?.alert ?? null);
  const [sending, setSending] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const form = useRef<HTMLFormElement>(null);
  const alertElement = useMessageInView<HTMLDivElement>(alert);
  const current = quote(props.services, serviceId, quantity);

  // One key per order being filled in: retries of it, or a double click, store one order. Made once
  // hydrated, so that the server's markup (no key) and the first render on the client match.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- a value only the browser can make
  useEffect(() => setIdempotencyKey(newIdempotencyKey()), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setAlert(null);
    const values = formValues(event.currentTarget);
    const result = await postJson<{ reference: string }>("/api/orders", values, { "Idempotency-Key": idempotencyKey });
    if (result.kind === "ok") {
      // Coming back to this page (the back button keeps it as it was) starts a new order.
      setIdempotencyKey(newIdempotencyKey());
      window.location.assign(`/confirmation?ref=${encodeURIComponent(result.body.reference)}`);
      return;
    }
    setSending(false);
    if (result.kind === "invalid") {
      setErrors(result.fields);
      const first = Object.keys(result.fields)[0];
      form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
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

  const field = (name: string) => ({ error: errors[name] });
  const aria = (id: string, name: string, hint = false) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": describedBy(id, hint, errors[name]),
  });

  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Place Your Order</h1>
          <p className="section__lead">Free pickup and delivery. We confirm your pickup time within 30 minutes.</p>
        </div>
      </section>
      <section className="section">
        <div className="container two-columns two-columns--wide-first">
          <form ref={form} className="card form" method="post" action="/order" onSubmit={submit}>
            {alert && (
              <div ref={alertElement} className="alert alert--error" role="alert" tabIndex={-1}>
                {alert}
              </div>
            )}
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <fieldset>
              <legend>Personal Information</legend>
              <Field id="order-name" label="Full Name" {...field("customerName")}>
                <input
                  id="order-name"
                  name="customerName"
                  type="text"
                  autoComplete="name"
                  required
                  maxLength={100}
                  defaultValue={value("customerName")}
                  {...aria("order-name", "customerName")}
                />
              </Field>
              <Field id="order-phone" label="Phone Number" {...field("phone")}>
                <input
                  id="order-phone"
                  name="phone"
                  type="tel"
                  autoComplete="tel"
                  inputMode="tel"
                  required
                  maxLength={20}
                  placeholder="07XX XXX XXX"
                  value={phone}
                  onChange={(event) => setPhone(event.target.value)}
                  {...aria("order-phone", "phone")}
                />
              </Field>
              <Field
                id="order-email"
                label="Email Address"
                optional
                hint="We'll send your order confirmation and updates to this address."
                {...field("email")}
              >
                <input
                  id="order-email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  maxLength={254}
                  defaultValue={value("email")}
                  {...aria("order-email", "email", true)}
                />
              </Field>
              <Field id="order-location" label="Location" {...field("location")}>
                <input
                  id="order-location"
                  name="location"
                  type="text"
                  autoComplete="street-address"
                  required
                  maxLength={200}
                  placeholder="Estate, street, building or landmark"
                  defaultValue={value("location")}
                  {...aria("order-location", "location")}
                />
              </Field>
            </fieldset>
            <fieldset>
              <legend>Service Selection</legend>
              <Field id="order-service" label="Service Type" {...field("serviceType")}>
                <select
                  id="order-service"
                  name="serviceType"
                  required
                  value={serviceId}
                  onChange={(event) => setServiceId(event.target.value)}
                  {...aria("order-service", "serviceType")}
                >
                  <option value="">Select a service</option>
                  {props.services.map((service) => (
                    <option key={service.id} value={service.id}>
                      {`${service.label} - ${formatKsh(service.pricePerKg)} per kg`}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="order-quantity" label="Quantity (kg)" {...field("quantity")}>
                <input
                  id="order-quantity"
                  name="quantity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_QUANTITY_KG}
                  step={1}
                  required
                  value={quantity}
                  onChange={(event) => setQuantity(event.target.value)}
                  {...aria("order-quantity", "quantity")}
                />
              </Field>
            </fieldset>
            <fieldset>
              <legend>Payment & Instructions</legend>
              <div className="field" role="radiogroup" aria-labelledby="order-payment-label">
                <span id="order-payment-label" className="field__label">
                  Payment Method
                </span>
                <label className="choice">
                  <input
                    type="radio"
                    name="paymentMethod"
                    value="pay-now"
                    defaultChecked={value("paymentMethod") !== "pay-delivery"}
                  />{" "}
                  Pay Now (M-PESA)
                </label>
                <label className="choice">
                  <input
                    type="radio"
                    name="paymentMethod"
                    value="pay-delivery"
                    defaultChecked={value("paymentMethod") === "pay-delivery"}
                  />{" "}
                  Pay on Delivery
                </label>
                {errors.paymentMethod && <p className="field__error">{errors.paymentMethod}</p>}
              </div>
              <Field id="order-instructions" label="Special Instructions" optional {...field("specialInstructions")}>
                <textarea
                  id="order-instructions"
                  name="specialInstructions"
                  rows={3}
                  maxLength={1000}
                  placeholder="Stains to look at, delicate items, gate code…"
                  defaultValue={value("specialInstructions")}
                  {...aria("order-instructions", "specialInstructions")}
                />
              </Field>
            </fieldset>
            <button type="submit" className="button button--primary button--large button--block" disabled={sending}>
              {sending ? "Placing your order…" : "Place Order"}
            </button>
          </form>
          <OrderSummary quote={current} phone={phone} till={props.business.mpesaTill} />
        </div>
      </section>
    </>
  );
}
