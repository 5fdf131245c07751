// /confirmation (spec section 2): what happens after an order was placed, with the order's ID,
// lines and total as the server priced them.
import { Icon } from "../components/Icon";
import { OrderLines } from "../components/OrderLines";
import { LivePaymentCard } from "../components/PaymentCard";
import { bookingMessage, orderMessage, telHref, whatsappHref } from "../lib/format";
import type { ConfirmationProps as OwnProps } from "../lib/generated/ConfirmationProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

const STEPS = [
  { title: "Confirmation Call", text: "We will contact you within 30 minutes to confirm pickup details." },
  { title: "Pickup", text: "Our valet collects your laundry at the agreed time, free of charge." },
  {
    title: "Processing",
    text: "Your items are cleaned with care. Standard turnaround is 3-4 days, next-day rush available.",
  },
  { title: "Delivery", text: "Fresh, folded and delivered back to your door." },
];

/** Props of the confirmation page: the order just placed, when the address named one. */
export type ConfirmationProps = SharedProps & OwnProps;

/** Title and description for the document shell. */
export function meta(props: ConfirmationProps): PageMeta {
  return {
    title: `Order Confirmed | ${props.business.name}`,
    description: "Your laundry order is confirmed. We will call you within 30 minutes to confirm pickup details.",
  };
}

/** The confirmation page. */
export default function ConfirmationPage(props: ConfirmationProps) {
  const { order } = props;
  return (
    <section className="section">
      <div className="container narrow">
        <div className="card confirmation">
          <span className="confirmation__icon">
            <Icon name="shield" />
          </span>
          <h1>Order Confirmed!</h1>
          <p className="section__lead">Thank you for choosing {props.business.name}. Here is what happens next.</p>
          {props.error && (
            <div className="alert alert--warning" role="alert">
              {props.error}
            </div>
          )}
          {order && (
            <div className="order-receipt">
              <p className="order-receipt__reference">
                Your order ID: <strong>{order.id}</strong>
              </p>
              <p className="muted center">
                Keep it to <a href={`/tracking?by=order&q=${encodeURIComponent(order.id)}`}>track your order</a>.
              </p>
              {order.pickup && (
                <dl className="summary-list">
                  <div>
                    <dt>Pickup</dt>
                    <dd>{order.pickup}</dd>
                  </div>
                  <div>
                    <dt>Pickup slot</dt>
                    <dd>
                      {order.pickupConfirmed
                        ? "Confirmed"
                        : "Waiting for confirmation: we will call you within 30 minutes"}
                    </dd>
                  </div>
                  {order.delivery && (
                    <div>
                      <dt>{order.rush ? "Delivery (next-day rush)" : "Delivery"}</dt>
                      <dd>{order.delivery}</dd>
                    </div>
                  )}
                </dl>
              )}
              {order.trackPath && (
                <p className="center">
                  <a className="button button--outline" href={order.trackPath}>
                    Track this order
                  </a>
                </p>
              )}
              <OrderLines lines={order.lines} total={order.totalAmount} />
              <LivePaymentCard
                payment={order.payment}
                orderPath={order.trackPath}
                till={props.business.mpesaTill}
                phone={order.phone}
              />
            </div>
          )}
          <ol className="steps">
            {STEPS.map((step, index) => (
              <li key={step.title} className="step">
                <span className="step__number" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h2 className="step__title">{step.title}</h2>
                  <p>{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <div className="actions">
            <a
              className="button button--whatsapp"
              href={whatsappHref(
                props.business.whatsapp,
                order ? orderMessage(props.business.name, order.id) : bookingMessage(props.business.name),
              )}
              target="_blank"
              rel="noopener noreferrer"
            >
              <Icon name="chat" /> WhatsApp Us
            </a>
            <a className="button button--outline" href={telHref(props.business.phone)}>
              <Icon name="phone" /> Call Us
            </a>
            <a className="button button--primary" href="/">
              Back to Home
            </a>
          </div>
        </div>
      </div>
    </section>
  );
}
