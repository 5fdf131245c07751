// The Order Summary card of /order (spec section 2).
import { formatKsh } from "../lib/format";
import type { OrderQuote } from "../lib/order";

interface OrderSummaryProps {
  quote: OrderQuote | null;
  phone: string;
  till: string;
}

/** Service, quantity, price per kg and total once chosen, and how to pay by M-PESA. */
export function OrderSummary({ quote, phone, till }: OrderSummaryProps) {
  return (
    <aside className="card order-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">Order Summary</h2>
      <div aria-live="polite">
        {quote ? (
          <dl className="summary-list">
            <div>
              <dt>Service</dt>
              <dd>{quote.service.label}</dd>
            </div>
            <div>
              <dt>Quantity</dt>
              <dd>{quote.quantity} kg</dd>
            </div>
            <div>
              <dt>Price per kg</dt>
              <dd>{formatKsh(quote.service.pricePerKg)}</dd>
            </div>
            <div className="summary-list__total">
              <dt>Total</dt>
              <dd>{formatKsh(quote.total)}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">Select a service to see pricing</p>
        )}
      </div>
      <div className="payment-steps">
        <h3>Payment Instructions (M-PESA)</h3>
        <ol>
          <li>Go to M-PESA, then Lipa na M-PESA, then Buy Goods and Services</li>
          <li>
            Till Number: <strong className="till">{till}</strong>
          </li>
          <li>
            Amount: <strong>{quote ? formatKsh(quote.total) : "your order total"}</strong>
          </li>
          <li>
            Reference: <strong>{phone.trim() || "your phone number"}</strong>
          </li>
        </ol>
      </div>
    </aside>
  );
}
