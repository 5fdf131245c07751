// The Reports tab's money: what came in by method and what was given back, and the store credit.
import type { MoneyBar } from "../../lib/generated/MoneyBar";
import type { MoneyReport } from "../../lib/generated/MoneyReport";
import { formatKsh } from "../../lib/format";
import { type Bar, BarChart } from "./ReportChart";
import { TableScroll } from "./TableScroll";

/** The chart's bars: the money received by method, stacked, and what was given back beneath. */
function moneyBars(bars: MoneyBar[]): Bar[] {
  return bars.map((bar) => ({
    label: bar.label,
    parts: bar.received.map((sum, tone) => ({ name: sum.label, value: sum.amount, tone })),
    below: bar.refunded.reduce((total, sum) => total + sum.amount, 0),
  }));
}

/** The section; `heading` names the table's rows (day, week or month). */
export function ReportMoneySection({ money, heading }: { money: MoneyReport; heading: string }) {
  const refunded = (bar: MoneyBar) => bar.refunded.reduce((total, sum) => total + sum.amount, 0);
  const credit = money.total.credit;
  return (
    <section className="reports__section" aria-labelledby="reports-money">
      <h2 id="reports-money">{`Money in: ${formatKsh(money.total.total)}`}</h2>
      <p className="reports__note">M-PESA and cash that moved, less what went back. Store credit is apart, below.</p>
      {money.receivedMethods.length + money.refundedMethods.length > 0 && (
        <ul className="chart__legend">
          {money.receivedMethods.map((method, tone) => (
            <li key={method.method}>
              <span className={`chart__key chart__bar--${tone}`} aria-hidden="true" /> {method.label}
            </li>
          ))}
          <li>
            <span className="chart__key chart__bar--below" aria-hidden="true" /> Given back
          </li>
        </ul>
      )}
      <BarChart title="Money in by day" bars={moneyBars(money.bars)} format={formatKsh} />
      <TableScroll>
        <table className="reports__table">
          <thead>
            <tr>
              <th scope="col">{heading}</th>
              {money.receivedMethods.map((method) => (
                <th scope="col" key={`in-${method.method}`}>
                  {method.label}
                </th>
              ))}
              {money.refundedMethods.map((method) => (
                <th scope="col" key={`back-${method.method}`}>
                  {`Given back: ${method.label}`}
                </th>
              ))}
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {money.bars.map((bar) => (
              <tr key={bar.start}>
                <th scope="row">{bar.label}</th>
                {bar.received.map((sum) => (
                  <td key={`in-${sum.method}`}>{formatKsh(sum.amount)}</td>
                ))}
                {bar.refunded.map((sum) => (
                  <td key={`back-${sum.method}`}>{formatKsh(sum.amount)}</td>
                ))}
                <td>{formatKsh(bar.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">In all</th>
              {money.total.received.map((sum) => (
                <td key={`in-${sum.method}`}>{formatKsh(sum.amount)}</td>
              ))}
              {money.total.refunded.map((sum) => (
                <td key={`back-${sum.method}`}>{formatKsh(sum.amount)}</td>
              ))}
              <td>{formatKsh(money.total.total)}</td>
            </tr>
          </tfoot>
        </table>
      </TableScroll>
      <dl className="reports__figures" aria-label="Money that moved">
        <div>
          <dt>Received</dt>
          <dd>{formatKsh(money.total.total + refunded(money.total))}</dd>
        </div>
        <div>
          <dt>Given back</dt>
          <dd>{formatKsh(refunded(money.total))}</dd>
        </div>
        <div>
          <dt>Net received</dt>
          <dd>{formatKsh(money.total.total)}</dd>
        </div>
      </dl>
      <h3 id="reports-credit">Store credit</h3>
      <p className="reports__note">What customers keep for their next orders: a debt to them, not money.</p>
      <dl className="reports__figures" aria-labelledby="reports-credit">
        <div>
          <dt>Kept as credit</dt>
          <dd>{formatKsh(credit.kept)}</dd>
        </div>
        <div>
          <dt>Used on orders</dt>
          <dd>{formatKsh(credit.used)}</dd>
        </div>
        <div>
          <dt>Owed to customers at the end</dt>
          <dd>{formatKsh(money.creditOwed)}</dd>
        </div>
      </dl>
    </section>
  );
}
