// /t/{token}/receipt: the receipt of one order, opened from the delivered text and the order's page
// (the token is the signed link). The shop's details, the order's lines and total, each payment and
// refund (how, the M-PESA code, when), each discount or claim's money off with its reason, and the
// balance in the ledger's words; a cancelled order's receipt says it was cancelled. It prints on A4, and on
// an 80 mm thermal roll with ?paper=80mm (the page size is then set).
import { type ReactNode, useEffect, useRef } from "react";
import { Icon } from "../components/Icon";
import { OrderLines } from "../components/OrderLines";
import { formatDateTime, formatKsh, orderMessage, whatsappHref } from "../lib/format";
import type { ReceiptProps as OwnProps } from "../lib/generated/ReceiptProps";
import { moneyLine } from "../lib/payment";
import type { SharedProps } from "../lib/types";
import { useHydrated } from "../lib/useHydrated";
import type { PageMeta } from "../routes";

/** Props of the receipt page. */
export type ReceiptProps = SharedProps & OwnProps;

/**
 * An 80 mm roll's page, `length` millimetres long. CSS has no `auto` length for `size` (Chromium
 * drops `80mm auto` and prints on the default paper), so the page says a length: an A4's until the
 * browser has measured the receipt, then the receipt's own just before printing.
 */
function thermalPage(length: number): string {
  return `@page { size: 80mm ${length}mm; margin: 0 }`;
}

/** The roll's length before the receipt is measured (without JavaScript): an A4's. */
const UNMEASURED_MM = 297;
/** CSS pixels per millimetre. */
const PX_PER_MM = 96 / 25.4;

/** Title and description for the document shell. */
export function meta(props: ReceiptProps): PageMeta {
  return {
    title: `Receipt for order #${props.id} | ${props.business.name}`,
    description: "The receipt of your laundry order: its lines, total and payment.",
  };
}

/** A row of the receipt's facts. */
function Fact({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The receipt page. */
export default function ReceiptPage(props: ReceiptProps) {
  const hydrated = useHydrated();
  const { business, payment } = props;
  const thermal = props.paper === "80mm";
  const pageStyle = useRef<HTMLStyleElement>(null);
  // Just before printing, the roll's page is made as long as the receipt (and a little margin).
  useEffect(() => {
    if (!thermal) return;
    const measure = () => {
      const receipt = document.querySelector(".receipt");
      if (!receipt || !pageStyle.current) return;
      const length = Math.ceil(receipt.getBoundingClientRect().height / PX_PER_MM) + 8;
      pageStyle.current.textContent = thermalPage(Math.max(length, 40));
    };
    window.addEventListener("beforeprint", measure);
    return () => window.removeEventListener("beforeprint", measure);
  }, [thermal]);
  return (
    <section className={`section receipt-page${thermal ? " receipt-page--80mm" : ""}`}>
      {thermal && <style ref={pageStyle}>{thermalPage(UNMEASURED_MM)}</style>}
      <div className="container narrow">
        <article className="card receipt" aria-labelledby="receipt-title">
          <header className="receipt__shop">
            <p className="receipt__name">{business.name}</p>
            <p>{business.location}</p>
            <p>
              {business.phone} · {business.email}
            </p>
            <p>{`M-PESA till ${business.mpesaTill}`}</p>
          </header>
          <h1 id="receipt-title" className="receipt__title">
            Receipt
          </h1>
          {props.cancelledAt && (
            <p className="receipt__cancelled" role="note">
              {`This order was cancelled on ${formatDateTime(props.cancelledAt)}: its charges were taken back.`}
            </p>
          )}
          <dl className="receipt__facts">
            <Fact term="Order ID">{props.id}</Fact>
            <Fact term="Customer">
              {props.customer} ({props.phone})
            </Fact>
            <Fact term="Placed">{formatDateTime(props.placedAt)}</Fact>
            {props.deliveredAt && <Fact term="Delivered">{formatDateTime(props.deliveredAt)}</Fact>}
            {props.cancelledAt && <Fact term="Cancelled">{formatDateTime(props.cancelledAt)}</Fact>}
          </dl>
          <OrderLines lines={props.lines} total={props.total} />
          {props.moneyOff.length > 0 && (
            <dl className="receipt__facts receipt__money-off">
              {props.moneyOff.map((off, index) => (
                <div key={index}>
                  <dt>{off.what}</dt>
                  <dd>{off.amount >= 0 ? `−${formatKsh(off.amount)}` : formatKsh(-off.amount)}</dd>
                  <dd className="receipt__detail">{formatDateTime(off.at)}</dd>
                </div>
              ))}
              {props.billAfterMoneyOff !== null && (
                <Fact term="Bill after money off" className="receipt__balance">
                  {formatKsh(props.billAfterMoneyOff)}
                </Fact>
              )}
            </dl>
          )}
          <dl className="receipt__facts receipt__payment">
            {payment.payments.map((view, index) => {
              const line = moneyLine(view);
              return (
                <div key={index}>
                  <dt>{line.what}</dt>
                  <dd>{line.amount}</dd>
                  {line.detail && <dd className="receipt__detail">{line.detail}</dd>}
                </div>
              );
            })}
            <Fact term="Balance" className="receipt__balance">
              {payment.words}
            </Fact>
            {payment.due > 0 && <Fact term="Pay to">{`M-PESA till ${business.mpesaTill}`}</Fact>}
          </dl>
          <p className="receipt__thanks">Thank you for choosing {business.name}.</p>
        </article>
        <nav className="receipt__actions" aria-label="Receipt">
          {hydrated && (
            <button type="button" className="button button--primary" onClick={() => window.print()}>
              Print
            </button>
          )}
          {thermal ? (
            <a className="button button--outline" href="?paper=a4">
              Lay out for A4
            </a>
          ) : (
            <a className="button button--outline" href="?paper=80mm">
              Lay out for 80 mm receipt paper
            </a>
          )}
          <a className="button button--outline" href={props.orderPath}>
            Back to your order
          </a>
          <a
            className="button button--whatsapp"
            href={whatsappHref(business.whatsapp, orderMessage(business.name, props.id))}
            target="_blank"
            rel="noopener noreferrer"
          >
            <Icon name="chat" /> WhatsApp us about it
          </a>
        </nav>
        {props.recleanUntil && (
          <p className="receipt__reclean">
            <a href={`${props.orderPath}#reclean`}>
              {`Not satisfied? Ask for a free re-clean until ${props.recleanUntil}`}
            </a>
          </p>
        )}
      </div>
    </section>
  );
}
