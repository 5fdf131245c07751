// How the order is paid, on the order's page and on the confirmation: with M-PESA prompts on, "check
// your phone" and the state of the newest prompt, which the page asks the server for every few
// seconds (`GET /t/{token}/payment`) while it is on the phone, and a plain form that sends the prompt
// again (works without JavaScript); otherwise the till instructions (spec section 9).
import { useEffect, useState } from "react";
import { formatKsh } from "../lib/format";
import type { CustomerPayment } from "../lib/generated/CustomerPayment";
import { HELD_PROMPT, POLL_MS, paidHow, promptWords, showsPrompt } from "../lib/payment";

interface PaymentCardProps {
  payment: CustomerPayment;
  /** The order's own page, `/t/{token}`: the form and the polling need it (the confirmation has it
   * only in the browser that placed the order). */
  orderPath: string | null;
  till: string;
  /** Masked, for the till's reference. */
  phone: string;
  /** Why "send it again" was refused, shown above the button. */
  problem?: string | null;
}

/** The payment as the server last said, asked again every few seconds while `poll` holds. */
function usePayment(initial: CustomerPayment, orderPath: string | null): CustomerPayment {
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

/** Buy Goods to the till, with the amount and the phone number as the reference. */
function TillSteps({ amount, till, phone }: { amount: number; till: string; phone: string }) {
  return (
    <ol>
      <li>Go to M-PESA, then Lipa na M-PESA, then Buy Goods and Services</li>
      <li>
        Till Number: <strong className="till">{till}</strong>
      </li>
      <li>
        Amount: <strong>{formatKsh(amount)}</strong>
      </li>
      <li>
        Reference: <strong>your phone number ({phone})</strong>
      </li>
    </ol>
  );
}

/** The order's payment. */
export function PaymentCard(props: PaymentCardProps) {
  const payment = usePayment(props.payment, props.orderPath);
  const refused = props.problem && (
    <div className="alert alert--error" role="alert">
      {props.problem}
    </div>
  );
  if (payment.paid) {
    return (
      <div className="payment-steps payment-state payment-state--paid" role="status">
        <h2 className="step__title">Paid</h2>
        {refused}
        <p>{paidHow(payment)}. Thank you!</p>
      </div>
    );
  }
  // A free re-clean (KSh 0) is never asked to pay.
  if (payment.due <= 0) {
    return (
      <div className="payment-steps">
        <h2 className="step__title">Nothing to pay</h2>
        <p>This order is free: KSh 0.</p>
      </div>
    );
  }
  if (payment.method === "pay-delivery") {
    if (!payment.prompts) return <p className="payment-steps">You pay the valet when we deliver your clean laundry.</p>;
    return (
      <div className="payment-steps">
        <h2 className="step__title">Pay on Delivery</h2>
        <p>
          You pay the valet when we deliver your clean laundry: in cash, or the valet sends an M-PESA prompt to your
          phone at the door.
        </p>
      </div>
    );
  }
  if (!showsPrompt(payment)) {
    return (
      <div className="payment-steps">
        <h2 className="step__title">Pay with M-PESA</h2>
        {refused}
        {payment.payAtTill && <p>{HELD_PROMPT}</p>}
        <TillSteps amount={payment.due} till={props.till} phone={props.phone} />
      </div>
    );
  }
  const words = payment.prompt ? promptWords(payment.prompt) : null;
  return (
    <div className={`payment-steps payment-state payment-state--${words?.tone ?? "waiting"}`}>
      <h2 className="step__title">Pay with M-PESA</h2>
      <div aria-live="polite" role="status">
        {words ? (
          <>
            {words.tone !== "waiting" && <p className="payment-state__title">{words.title}</p>}
            <p>{words.text}</p>
          </>
        ) : (
          <p>{`Check your phone: we send an M-PESA prompt for ${formatKsh(payment.due)}. Enter your M-PESA PIN to pay.`}</p>
        )}
      </div>
      {payment.canAsk && props.orderPath && (
        <form method="post" action={`${props.orderPath}/pay`} className="payment-state__again">
          {refused}
          <button type="submit" className="button button--outline button--block">
            Send the M-PESA prompt again
          </button>
        </form>
      )}
      {!payment.canAsk && refused}
      <details className="payment-state__till">
        <summary>No prompt? Pay to the till instead</summary>
        <TillSteps amount={payment.due} till={props.till} phone={props.phone} />
      </details>
    </div>
  );
}
