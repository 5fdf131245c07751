// /admin/exports/summary?month=YYYY-MM: the accountant's summary of a month, for the owner. Money in
// by method, given back, net (M-PESA and cash that moved); store credit kept, used and owed on lines
// of its own (a debt to customers, not money); what the ledger charged; the orders placed; the cash
// taken and handed in. It prints on one A4 sheet (the site's header, footer and the buttons are left
// out).
import type { MethodSum } from "../lib/generated/MethodSum";
import type { MonthSummary } from "../lib/generated/MonthSummary";
import { formatKsh } from "../lib/format";
import type { SharedProps } from "../lib/types";
import { useHydrated } from "../lib/useHydrated";
import type { PageMeta } from "../routes";

/** Props of the summary page. */
export type SummaryProps = SharedProps & MonthSummary;

/** Title and description for the document shell. */
export function meta(props: SummaryProps): PageMeta {
  return {
    title: `Summary of ${props.month} | ${props.business.name}`,
    description: "The month's money, bills, orders and cash, for the accountant.",
  };
}

function MethodRows({ sums }: { sums: MethodSum[] }) {
  return (
    <>
      {sums.map((sum) => (
        <tr key={sum.method}>
          <th scope="row">{sum.label}</th>
          <td>{formatKsh(sum.amount)}</td>
        </tr>
      ))}
    </>
  );
}

/** The summary page. */
export default function SummaryPage(props: SummaryProps) {
  const hydrated = useHydrated();
  const stillHeld = props.cashCollected - props.cashHandedIn;
  return (
    <section className="section summary-page">
      <div className="container narrow">
        <article className="card summary" aria-labelledby="summary-title">
          <header>
            <p className="summary__shop">{`${props.business.name} · ${props.business.location}`}</p>
            <h1 id="summary-title">{`Summary of ${props.month}`}</h1>
            <p>{`${props.from} to ${props.to}, Nairobi time${props.toDate ? " (to date: the month is not over)" : ""}`}</p>
          </header>

          <table className="summary__table">
            <caption>Money received</caption>
            <tbody>
              <MethodRows sums={props.received} />
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Received in all</th>
                <td>{formatKsh(props.receivedTotal)}</td>
              </tr>
            </tfoot>
          </table>

          <table className="summary__table">
            <caption>Money given back</caption>
            <tbody>
              <MethodRows sums={props.refunded} />
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Given back in all</th>
                <td>{formatKsh(props.refundedTotal)}</td>
              </tr>
              <tr>
                <th scope="row">Net received</th>
                <td>{formatKsh(props.net)}</td>
              </tr>
            </tfoot>
          </table>

          <table className="summary__table">
            <caption>Store credit (a debt to customers, not money)</caption>
            <tbody>
              <tr>
                <th scope="row">Kept as credit</th>
                <td>{formatKsh(props.credit.kept)}</td>
              </tr>
              <tr>
                <th scope="row">Used on orders</th>
                <td>{formatKsh(props.credit.used)}</td>
              </tr>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{props.toDate ? "Owed to customers now" : "Owed to customers at the month's end"}</th>
                <td>{formatKsh(props.creditOwed)}</td>
              </tr>
            </tfoot>
          </table>

          <table className="summary__table">
            <caption>Billed (the ledger&apos;s charges)</caption>
            <tbody>
              {props.charged.map((line) => (
                <tr key={line.label}>
                  <th scope="row">{line.label}</th>
                  <td>{formatKsh(line.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Billed in all</th>
                <td>{formatKsh(props.chargedTotal)}</td>
              </tr>
            </tfoot>
          </table>

          <table className="summary__table">
            <caption>Orders and cash</caption>
            <tbody>
              <tr>
                <th scope="row">Orders placed (not cancelled)</th>
                <td>{props.orders.orders}</td>
              </tr>
              <tr>
                <th scope="row">Kilos billed</th>
                <td>{props.orders.kilos}</td>
              </tr>
              <tr>
                <th scope="row">Their bills now</th>
                <td>{formatKsh(props.orders.amount)}</td>
              </tr>
              <tr>
                <th scope="row">Cash taken (less given back)</th>
                <td>{formatKsh(props.cashCollected)}</td>
              </tr>
              <tr>
                <th scope="row">Cash handed in</th>
                <td>{formatKsh(props.cashHandedIn)}</td>
              </tr>
              <tr>
                <th scope="row">Cash not handed in</th>
                <td>{formatKsh(stillHeld)}</td>
              </tr>
            </tbody>
          </table>
        </article>
        <nav className="summary__actions" aria-label="Summary">
          {hydrated && (
            <button type="button" className="button button--primary" onClick={() => window.print()}>
              Print
            </button>
          )}
          <a className="button button--outline" href={`?month=${props.previous}`}>
            The month before
          </a>
          {props.next && (
            <a className="button button--outline" href={`?month=${props.next}`}>
              The month after
            </a>
          )}
          <a
            className="button button--outline"
            href={`/admin?tab=reports&period=custom&from=${props.from}&to=${props.to}`}
          >
            Back to the reports
          </a>
        </nav>
      </div>
    </section>
  );
}
