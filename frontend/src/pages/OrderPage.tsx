// /order, 'Place Your Order' (spec section 2): three field groups and the Order Summary. A real
// form with named fields (spec section 3), so it posts even before or without JavaScript.
import { useState } from "react";
import { Field } from "../components/Field";
import { OrderSummary } from "../components/OrderSummary";
import { formatKsh } from "../lib/format";
import { MAX_QUANTITY_KG, quote } from "../lib/order";
import type { Service, SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the order page. */
export interface OrderProps extends SharedProps {
  services: Service[];
}

/** Title and description for the document shell. */
export function meta(props: OrderProps): PageMeta {
  return {
    title: `Place Your Order: Free Pickup in Nairobi | ${props.business.name}`,
    description: "Book a laundry, ironing, dry-cleaning or bedding pickup in Nairobi. Pay by M-PESA or on delivery; we confirm within 30 minutes.",
  };
}

/** The order page. */
export default function OrderPage(props: OrderProps) {
  const [serviceId, setServiceId] = useState("");
  const [quantity, setQuantity] = useState("");
  const [phone, setPhone] = useState("");
  const current = quote(props.services, serviceId, quantity);

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
          <form className="card form" method="post" action="/order">
            <fieldset>
              <legend>Personal Information</legend>
              <Field id="order-name" label="Full Name">
                <input id="order-name" name="customerName" type="text" autoComplete="name" required maxLength={100} />
              </Field>
              <Field id="order-phone" label="Phone Number">
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
                />
              </Field>
              <Field
                id="order-email"
                label="Email Address"
                optional
                hint="We'll send your order confirmation and updates to this address."
              >
                <input id="order-email" name="email" type="email" autoComplete="email" maxLength={254} aria-describedby="order-email-hint" />
              </Field>
              <Field id="order-location" label="Location">
                <input id="order-location" name="location" type="text" autoComplete="street-address" required maxLength={200} placeholder="Estate, street, building or landmark" />
              </Field>
            </fieldset>
            <fieldset>
              <legend>Service Selection</legend>
              <Field id="order-service" label="Service Type">
                <select id="order-service" name="serviceType" required value={serviceId} onChange={(event) => setServiceId(event.target.value)}>
                  <option value="">Select a service</option>
                  {props.services.map((service) => (
                    <option key={service.id} value={service.id}>
                      {`${service.label} - ${formatKsh(service.pricePerKg)} per kg`}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="order-quantity" label="Quantity (kg)">
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
                />
              </Field>
            </fieldset>
            <fieldset>
              <legend>Payment & Instructions</legend>
              <div className="field" role="radiogroup" aria-labelledby="order-payment-label">
                <span id="order-payment-label" className="field__label">Payment Method</span>
                <label className="choice">
                  <input type="radio" name="paymentMethod" value="pay-now" defaultChecked /> Pay Now (M-PESA)
                </label>
                <label className="choice">
                  <input type="radio" name="paymentMethod" value="pay-delivery" /> Pay on Delivery
                </label>
              </div>
              <Field id="order-instructions" label="Special Instructions" optional>
                <textarea id="order-instructions" name="specialInstructions" rows={3} maxLength={1000} placeholder="Stains to look at, delicate items, gate code…" />
              </Field>
            </fieldset>
            <button type="submit" className="button button--primary button--large button--block">Place Order</button>
          </form>
          <OrderSummary quote={current} phone={phone} till={props.business.mpesaTill} />
        </div>
      </section>
    </>
  );
}
