// The Order Summary card of /order (spec section 2): the order's lines and total before it is placed,
// and how it is paid.
import { formatKsh } from "../lib/format";
import type { PickupOption } from "../lib/generated/PickupOption";
import type { OrderQuote } from "../lib/order";
import { deliveryOf } from "../lib/pickup";
import type { Service } from "../lib/types";
import { OrderLines } from "./OrderLines";

interface OrderSummaryProps {
  /** Null while nothing is chosen. */
  quote: OrderQuote | null;
  services: readonly Service[];
  phone: string;
  /** Pay Now (M-PESA) chosen: the till instructions show. */
  payNow: boolean;
  /** The site sends an M-PESA prompt to the phone for a Pay Now order. */
  prompts: boolean;
  till: string;
  /** KSh off a phone number's first order, when that offer is on. */
  firstOrderDiscount: number | null;
  /** The pickup window chosen, if any. */
  pickup: PickupOption | null;
  /** Next-day rush ticked: the delivery is the day after pickup. */
  rush: boolean;
}

/** The summary's note without JavaScript, when it cannot follow what is typed. */
const STATIC_NOTE =
  "This summary does not change as you fill in the form without JavaScript: the next page shows your order and its total.";

/** What the till instructions ask for: the server takes off a first-order discount, so with the offer
 * on, the confirmation says the amount. */
function amountToPay(total: number | null, firstOrderDiscount: number | null): string {
  if (firstOrderDiscount !== null) return "the total on your confirmation";
  return total !== null ? formatKsh(total) : "your order total";
}

/** When the valet comes and when the laundry comes back, each line and the total once chosen (or
 * what is missing), the first-order offer, and how to pay. */
export function OrderSummary(props: OrderSummaryProps) {
  const { quote, services, phone, payNow, prompts, till, firstOrderDiscount, pickup, rush } = props;
  const total = quote?.total ?? null;
  return (
    <aside className="card order-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">Order Summary</h2>
      {/* Without JavaScript nothing here follows the form: say so (a script-less browser shows
          this; a browser running the page's script never does). */}
      <noscript>
        <p className="order-summary__static">{STATIC_NOTE}</p>
      </noscript>
      <dl className="summary-list" aria-live="polite">
        <div>
          <dt>Pickup</dt>
          <dd>{pickup ? pickup.label : "Choose a pickup window"}</dd>
        </div>
        {pickup && (
          <div>
            <dt>{rush ? "Delivery (next-day rush)" : "Delivery"}</dt>
            <dd>{deliveryOf(pickup, rush)}</dd>
          </div>
        )}
      </dl>
      <div aria-live="polite">
        {quote ? (
          <>
            {quote.lines.length > 0 && <OrderLines lines={quote.lines} total={total} services={services} />}
            {quote.problems.map((problem) => (
              <p key={problem} className="order-summary__problem">
                {problem}
              </p>
            ))}
          </>
        ) : (
          <p className="muted">Select a service to see pricing</p>
        )}
      </div>
      {firstOrderDiscount !== null && (
        <p className="order-summary__offer">
          First order from this phone number? {formatKsh(firstOrderDiscount)} comes off the total. Your confirmation
          shows what to pay.
        </p>
      )}
      {payNow ? (
        <div className="payment-steps">
          <h3>Payment Instructions (M-PESA)</h3>
          {prompts && (
            <p>
              When you place the order, your phone gets an M-PESA prompt for {amountToPay(total, firstOrderDiscount)}:
              enter your M-PESA PIN to pay. If no prompt comes, pay to the till:
            </p>
          )}
          <ol>
            <li>Go to M-PESA, then Lipa na M-PESA, then Buy Goods and Services</li>
            <li>
              Till Number: <strong className="till">{till}</strong>
            </li>
            <li>
              Amount: <strong>{amountToPay(total, firstOrderDiscount)}</strong>
            </li>
            <li>
              Reference: <strong>{phone.trim() || "your phone number"}</strong>
            </li>
          </ol>
        </div>
      ) : (
        <div className="payment-steps">
          <h3>Pay on Delivery</h3>
          <p>You pay the valet when we deliver your clean laundry.</p>
        </div>
      )}
    </aside>
  );
}
