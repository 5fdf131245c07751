// An order's payment as the server last said it, asked again every few seconds while a prompt is on
// the phone (`GET /t/{token}/payment`): the payment card shows it, and the order's page also follows
// it (once paid, no online cancelling and a receipt link) without a reload.
import { useEffect, useState } from "react";
import type { CustomerPayment } from "./generated/CustomerPayment";
import { POLL_MS } from "./payment";

/** The payment, starting from `initial`; asked again at `orderPath`/payment while it says to poll. */
export function usePayment(initial: CustomerPayment, orderPath: string | null): CustomerPayment {
  const [payment, setPayment] = useState(initial);
  useEffect(() => {
    if (!orderPath || !payment.poll) return;
    const timer = window.setTimeout(async () => {
      try {
        const response = await fetch(`${orderPath}/payment`, { headers: { Accept: "application/json" } });
        if (response.ok) {
          setPayment((await response.json()) as CustomerPayment);
          return;
        }
      } catch {
        // No connection for a moment: asked again below.
      }
      setPayment((current) => ({ ...current }));
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [orderPath, payment]);
  return payment;
}
