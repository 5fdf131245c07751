// How the order's money stands, on the order's page and on the confirmation: the balance in the
// ledger's words ("Paid KSh 1,200 · KSh 300 to pay"), the payments and refunds, and what to do next.
// With M-PESA prompts on, "check your phone" and the state of the newest prompt, which the page asks
// the server for every few seconds (`usePayment`) while it is on the phone, and a plain
// form that asks for a prompt for what is still to pay (works without JavaScript); otherwise the till
// instructions (spec section 9). Money owed back can be kept as store credit with another plain form.
import { formatKsh } from "../lib/format";
import type { ChangeProblem } from "../lib/generated/ChangeProblem";
import type { CustomerPayment } from "../lib/generated/CustomerPayment";
import { usePayment } from "../lib/usePayment";
import { askLabel, HELD_PROMPT, moneyLine, paysAtDoor, promptComing, promptWords, showsPrompt } from "../lib/payment";

interface PaymentCardProps {
  /** As the server last said it: the caller follows it with `usePayment` (or `LivePaymentCard`). */
  payment: CustomerPayment;
  /** The order's own page, `/t/{token}`: the forms and the polling need it (the confirmation has it
   * only in the browser that placed the order). */
  orderPath: string | null;
  till: string;
  /** Masked, for the till's reference. */
  phone: string;
  /** Why the prompt or the store credit was refused, shown beside its form. */
  problem?: ChangeProblem | null;
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

/** A refusal beside its form. */
function Refused({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {message}
    </div>
  );
}

/** Every payment and refund, oldest first: how, how much, the M-PESA code and when. */
function Payments({ payment }: { payment: CustomerPayment }) {
  if (payment.payments.length === 0) return null;
  return (
    <ul className="payment-list" aria-label="Payments">
      {payment.payments.map((view, index) => {
        const line = moneyLine(view);
        return (
          <li key={index}>
            <span className="payment-list__what">{line.what}</span>
            <span className="payment-list__amount">{line.amount}</span>
            {line.detail && <span className="payment-list__detail">{line.detail}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** What is still to pay: the prompt on the phone, a button for one, or how to pay otherwise. */
function ToPay({ payment, props }: { payment: CustomerPayment; props: PaymentCardProps }) {
  const refused = props.problem?.form === "pay" ? props.problem.message : null;
  const atDoor = paysAtDoor(payment);
  return (
    <>
      {payment.payAtTill && <p>{HELD_PROMPT}</p>}
      {atDoor && (
        <p>
          {payment.prompts
            ? "You pay the valet when we deliver your clean laundry: in cash, or the valet sends an M-PESA prompt to your phone at the door."
            : "You pay the valet when we deliver your clean laundry."}
        </p>
      )}
      {payment.method === "pay-delivery" && !atDoor && <p>Or pay the rest to the valet when we deliver.</p>}
      {(payment.payAtTill || (!payment.prompts && !atDoor)) && (
        <TillSteps amount={payment.due} till={props.till} phone={props.phone} />
      )}
      {payment.canAsk && props.orderPath ? (
        <form method="post" action={`${props.orderPath}/pay`} className="payment-state__again">
          <Refused message={refused} />
          <button type="submit" className="button button--outline button--block">
            {askLabel(payment)}
          </button>
        </form>
      ) : (
        <Refused message={refused} />
      )}
      {payment.prompts && !payment.payAtTill && !atDoor && (
        <details className="payment-state__till">
          <summary>No prompt? Pay to the till instead</summary>
          <TillSteps amount={payment.due} till={props.till} phone={props.phone} />
        </details>
      )}
    </>
  );
}

/** Money we owe back: kept as store credit for the next order if the customer says so, else refunded. */
function OwedBack({ payment, props }: { payment: CustomerPayment; props: PaymentCardProps }) {
  const amount = formatKsh(payment.owedBack);
  if (!payment.canKeepCredit || !props.orderPath) {
    return <p>{`We will send your ${amount} back to you.`}</p>;
  }
  return (
    <form method="post" action={`${props.orderPath}/credit`} className="payment-state__again">
      <Refused message={props.problem?.form === "credit" ? props.problem.message : null} />
      <button type="submit" className="button button--outline button--block">
        {`Keep ${amount} as credit for my next order`}
      </button>
      <p className="payment-state__hint">{`Otherwise we refund the ${amount} to you.`}</p>
    </form>
  );
}

/** The payment card of a page that does not follow the payment itself: it asks for it while a
 * prompt is on the phone. */
export function LivePaymentCard(props: PaymentCardProps) {
  return <PaymentCard {...props} payment={usePayment(props.payment, props.orderPath)} />;
}

/** The order's payment. */
export function PaymentCard(props: PaymentCardProps) {
  const { payment } = props;
  const prompt = showsPrompt(payment) && payment.prompt ? promptWords(payment.prompt) : null;
  const settled = payment.due <= 0 && payment.owedBack <= 0;
  const tone = prompt?.tone ?? (settled ? "paid" : payment.settlement);
  return (
    <div className={`payment-steps payment-state payment-state--${tone}`}>
      <h2 className="step__title">Payment</h2>
      <div aria-live="polite" role="status">
        <p className="payment-state__balance">{payment.words}</p>
        {promptComing(payment) && (
          <p>{`Check your phone: we send an M-PESA prompt for ${formatKsh(payment.due)}. Enter your M-PESA PIN to pay.`}</p>
        )}
        {prompt && (
          <>
            {prompt.tone !== "waiting" && <p className="payment-state__title">{prompt.title}</p>}
            <p>{prompt.text}</p>
          </>
        )}
        {settled && payment.payments.length > 0 && <p>Thank you!</p>}
      </div>
      <Payments payment={payment} />
      {payment.due > 0 && <ToPay payment={payment} props={props} />}
      {payment.owedBack > 0 && <OwedBack payment={payment} props={props} />}
      {/* A refusal whose form is gone (the order was paid meanwhile, or nothing is owed back). */}
      {payment.due <= 0 && props.problem?.form === "pay" && <Refused message={props.problem.message} />}
      {payment.owedBack <= 0 && props.problem?.form === "credit" && <Refused message={props.problem.message} />}
    </div>
  );
}
