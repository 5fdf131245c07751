// /t/{token}: one order's own page, opened from the link in its messages without typing anything
// (DESIGN.md's signed link). The tracking card of that order, and until the pickup's cut-off two
// plain forms that work without JavaScript: move the pickup to another open window, or cancel; and
// always one that stops (or starts again) the text messages to the order's phone number. Delivered,
// the free re-clean's form (RecleanCard); a re-clean says which order it cleans again.
import { Field } from "../components/Field";
import { Icon } from "../components/Icon";
import { PaymentCard } from "../components/PaymentCard";
import { GarmentsCard } from "../components/GarmentsCard";
import { RecleanCard, RecleanOfNote } from "../components/RecleanCard";
import { TrackedOrderCard } from "../components/TrackedOrderCard";
import { formatKsh, orderMessage, telHref, whatsappHref } from "../lib/format";
import type { ChangeForm } from "../lib/generated/ChangeForm";
import type { CustomerPayment } from "../lib/generated/CustomerPayment";
import type { OrderStatusProps as OwnProps } from "../lib/generated/OrderStatusProps";
import type { PickupChoice } from "../lib/generated/PickupChoice";
import type { SharedProps } from "../lib/types";
import { usePayment } from "../lib/usePayment";
import { choiceLabel, choicesByDay } from "../lib/visit";
import type { PageMeta } from "../routes";

/** Props of the order's page. */
export type OrderStatusProps = SharedProps & OwnProps;

/** Title and description for the document shell. */
export function meta(props: OrderStatusProps): PageMeta {
  return {
    title: `Order #${props.order.id} | ${props.business.name}`,
    description: "Your laundry order: pickup and delivery windows, progress, and where the valet is.",
    status: props.status === 200 ? undefined : props.status,
  };
}

/** The refusal of `form`, if that is the form that was sent. */
function Problem({ props, form }: { props: OrderStatusProps; form: ChangeForm }) {
  if (props.problem?.form !== form) return null;
  return (
    <div className="alert alert--error" role="alert">
      {props.problem.message}
    </div>
  );
}

/** A required select of windows grouped by day, each option "Day, `label(choice)`". */
function WindowSelect({
  id,
  name,
  choices,
  label,
  describedBy,
}: {
  id: string;
  name: string;
  choices: readonly PickupChoice[];
  label: (choice: PickupChoice) => string;
  describedBy?: string;
}) {
  return (
    <select id={id} name={name} required defaultValue="" aria-describedby={describedBy}>
      <option value="" disabled>
        Choose a day and window
      </option>
      {choicesByDay(choices).map((day) => (
        <optgroup key={day.day} label={day.day}>
          {day.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {`${day.day}, ${label(choice)}`}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** Move the pickup: a select of the open windows of the next 14 days, grouped by day. */
function RescheduleForm({ props, choices }: { props: OrderStatusProps; choices: readonly PickupChoice[] }) {
  const missed = props.missed?.kind === "pickup" ? props.missed : null;
  return (
    <form className="card form" method="post" action={`/t/${props.token}/reschedule`}>
      <h2>{missed ? "Choose a New Pickup Time" : "Change the Pickup Time"}</h2>
      {missed && (
        <div className="alert alert--warning" role="status">
          {missed.message}
        </div>
      )}
      <Problem props={props} form="reschedule" />
      {choices.length === 0 ? (
        <p>No other pickup window has room in the next 14 days. Please call or WhatsApp us.</p>
      ) : (
        <>
          <Field
            id="new-pickup"
            label="New pickup window"
            hint="Your delivery moves with it. We confirm the new time within 30 minutes."
          >
            <WindowSelect
              id="new-pickup"
              name="pickup"
              choices={choices}
              label={choiceLabel}
              describedBy="new-pickup-hint"
            />
          </Field>
          <button type="submit" className="button button--primary button--block">
            Move My Pickup
          </button>
        </>
      )}
    </form>
  );
}

/** A delivery the valet missed: a select of the windows it can come in instead. */
function DeliveryForm({ props }: { props: OrderStatusProps }) {
  const missed = props.missed;
  if (missed?.kind !== "delivery") return null;
  return (
    <form className="card form order-change" method="post" action={`/t/${props.token}/delivery`}>
      <h2>Choose a New Delivery Time</h2>
      <div className="alert alert--warning" role="status">
        {missed.message}
      </div>
      <Problem props={props} form="delivery" />
      {missed.choices.length === 0 ? (
        <p>No delivery window can be booked in the next days. Please call or WhatsApp us.</p>
      ) : (
        <>
          <Field id="new-delivery" label="New delivery window">
            <WindowSelect
              id="new-delivery"
              name="delivery"
              choices={missed.choices}
              label={(choice) => choice.window}
            />
          </Field>
          <button type="submit" className="button button--primary button--block">
            Book My Delivery
          </button>
        </>
      )}
    </form>
  );
}

/** Cancel the order, once the box is ticked; a paid one only by calling us (its money goes back). */
function CancelForm({ props, payment }: { props: OrderStatusProps; payment: CustomerPayment }) {
  // Money received (whatever is still to pay): as the server refuses it.
  const received = ["part-paid", "paid", "in-credit"].includes(payment.settlement);
  if (received) {
    return (
      <div className="card form">
        <h2>Cancel the Order</h2>
        <p>
          Money was paid for this order, so it cannot be cancelled online. Please call or WhatsApp us: we will cancel it
          and send your money back.
        </p>
      </div>
    );
  }
  return (
    <form className="card form" method="post" action={`/t/${props.token}/cancel`}>
      <h2>Cancel the Order</h2>
      <Problem props={props} form="cancel" />
      <label className="choice">
        <input type="checkbox" name="confirm" value="yes" required />
        Yes, cancel this order
      </label>
      <button type="submit" className="button button--outline button--block order-change__cancel">
        Cancel Order
      </button>
    </form>
  );
}

/** The forms while changes are open; otherwise why not, and any refusal. */
function Changes({ props, payment }: { props: OrderStatusProps; payment: CustomerPayment }) {
  if (props.changeable) {
    return (
      <div className="order-change">
        <RescheduleForm props={props} choices={props.choices} />
        <CancelForm props={props} payment={payment} />
      </div>
    );
  }
  const problem = props.problem?.form === "reschedule" || props.problem?.form === "cancel" ? props.problem : null;
  if (!problem && !props.closed) return null;
  return (
    <div className="card order-change">
      <h2>Change or Cancel</h2>
      {problem && (
        <div className="alert alert--error" role="alert">
          {problem.message}
        </div>
      )}
      {props.closed && props.closed !== problem?.message && <p>{props.closed}</p>}
    </div>
  );
}

/** Stop the text messages to the order's number, or, once stopped, send them again. */
function TextsForm({ props }: { props: OrderStatusProps }) {
  const off = props.textsOff;
  return (
    <form className="card form" method="post" action={`/t/${props.token}/texts`}>
      <h2>Text Messages</h2>
      <Problem props={props} form="texts" />
      {off ? (
        <p>Text messages are off for {props.order.phone}: we send no texts to this number, for any order.</p>
      ) : (
        <p>We text {props.order.phone} at each step of your order. You can stop these texts at any time.</p>
      )}
      <input type="hidden" name="texts" value={off ? "on" : "off"} />
      <button type="submit" className="button button--outline button--block">
        {off ? "Send me texts again" : "Stop text messages"}
      </button>
    </form>
  );
}

/**
 * The phone's store credit, offered when the page was opened from the link texted to that phone
 * (its key goes with the form); after a refusal, its reason.
 */
function UseCreditForm({ props }: { props: OrderStatusProps }) {
  const offer = props.creditOffer;
  if (!offer) {
    if (props.problem?.form !== "usecredit") return null;
    return (
      <div className="card">
        <h2>Your store credit</h2>
        <Problem props={props} form="usecredit" />
      </div>
    );
  }
  return (
    <form className="card form" method="post" action={`/t/${props.token}/use-credit`}>
      <h2>Your store credit</h2>
      <Problem props={props} form="usecredit" />
      <p>{`This phone number holds ${formatKsh(offer.held)} of store credit. It can pay ${formatKsh(offer.amount)} of this order.`}</p>
      <input type="hidden" name="key" value={offer.key} />
      <button className="button button--primary" type="submit">
        {`Use ${formatKsh(offer.amount)} of my credit`}
      </button>
    </form>
  );
}

/** The order's page. */
export default function OrderStatusPage(props: OrderStatusProps) {
  const orderPath = `/t/${props.token}`;
  // Followed while a prompt is on the phone: once paid, the page offers the receipt and no longer
  // offers to cancel online, as the server's page would after a reload.
  const payment = usePayment(props.payment, orderPath);
  const receiptPath = props.receiptPath ?? (payment.paid ? `${orderPath}/receipt` : null);
  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Your Order</h1>
          <p className="section__lead">When we come, where your laundry is, and where the valet is on the day.</p>
        </div>
      </section>
      <section className="section">
        <div className="container narrow">
          {props.notice && (
            <div className="alert alert--success" role="status">
              {props.notice}
            </div>
          )}
          {props.reclean.of && <RecleanOfNote of={props.reclean.of} />}
          <TrackedOrderCard order={props.order} business={props.business} />
          <div className="card order-payment">
            <PaymentCard
              payment={payment}
              orderPath={orderPath}
              till={props.business.mpesaTill}
              phone={props.order.phone}
              problem={props.problem}
            />
            {receiptPath && (
              <p className="order-payment__receipt">
                <a className="button button--outline" href={receiptPath}>
                  View and print the receipt
                </a>
              </p>
            )}
          </div>
          <UseCreditForm props={props} />
          <RecleanCard section={props.reclean} token={props.token} phone={props.business.phone} />
          <GarmentsCard garments={props.garments} token={props.token} />
          <DeliveryForm props={props} />
          <Changes props={props} payment={payment} />
          {(props.textsSent || props.textsOff) && <TextsForm props={props} />}
          <div className="card help-card">
            <h2>Need Help?</h2>
            <p>Call or WhatsApp us about your order: {props.business.phone}.</p>
            <div className="actions">
              <a className="button button--outline" href={telHref(props.business.phone)}>
                <Icon name="phone" /> Call Us
              </a>
              <a
                className="button button--whatsapp"
                href={whatsappHref(props.business.whatsapp, orderMessage(props.business.name, props.order.id))}
                target="_blank"
                rel="noopener noreferrer"
              >
                <Icon name="chat" /> WhatsApp
              </a>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
