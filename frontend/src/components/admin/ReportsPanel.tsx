// The owner's "Reports" tab: a period picker (a plain GET form, so it works without JavaScript),
// then for the period the money taken in by method with what was given back, the orders and kilos
// booked, and the delivered orders that still owe by how long ago. Each chart is SVG drawn with
// the page on the server (readable and printable without JavaScript, no chart library shipped);
// the table beneath it holds the exact figures.
import type { MoneyBar } from "../../lib/generated/MoneyBar";
import type { OrdersBar } from "../../lib/generated/OrdersBar";
import type { Reports } from "../../lib/generated/Reports";
import { formatKsh } from "../../lib/format";

const PERIODS: readonly { id: Reports["period"]; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "week", label: "This week" },
  { id: "month", label: "This month" },
  { id: "last-month", label: "Last month" },
  { id: "custom", label: "From one day to another" },
];

/** One bar: its label, the parts stacked above the line and the one beneath it. */
interface Bar {
  label: string;
  parts: { name: string; value: number; tone: number }[];
  below: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 64;
const BOTTOM = 28;

/** A stacked bar chart: parts above the axis, `below` (refunds) beneath it. */
function BarChart({ title, bars, format }: { title: string; bars: Bar[]; format: (value: number) => string }) {
  const top = Math.max(1, ...bars.map((bar) => bar.parts.reduce((sum, part) => sum + part.value, 0)));
  const bottom = Math.max(0, ...bars.map((bar) => bar.below));
  const plot = HEIGHT - BOTTOM - 12;
  const scale = plot / (top + bottom);
  const axis = 12 + top * scale;
  const step = (WIDTH - LEFT) / Math.max(1, bars.length);
  const width = Math.max(2, Math.min(40, step * 0.7));
  // At most five labels: they stay apart on a phone too.
  const labelEvery = Math.ceil(bars.length / 5);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`${title}: the table below gives each figure`}
      preserveAspectRatio="xMinYMin meet"
    >
      <text className="chart__scale" x={LEFT - 6} y={16} textAnchor="end">
        {format(top)}
      </text>
      <line className="chart__axis" x1={LEFT} x2={WIDTH} y1={axis} y2={axis} />
      <text className="chart__scale" x={LEFT - 6} y={axis + 4} textAnchor="end">
        {format(0)}
      </text>
      {bottom > 0 && (
        <text className="chart__scale" x={LEFT - 6} y={HEIGHT - BOTTOM} textAnchor="end">
          {`−${format(bottom)}`}
        </text>
      )}
      {bars.map((bar, index) => {
        const x = LEFT + index * step + (step - width) / 2;
        let y = axis;
        return (
          <g key={bar.label}>
            <title>{hover(bar, format)}</title>
            {bar.parts
              .filter((part) => part.value > 0)
              .map((part) => {
                const height = part.value * scale;
                y -= height;
                return (
                  <rect
                    key={part.name}
                    className={`chart__bar chart__bar--${part.tone}`}
                    x={x}
                    y={y}
                    width={width}
                    height={height}
                  />
                );
              })}
            {bar.below > 0 && (
              <rect className="chart__bar chart__bar--below" x={x} y={axis} width={width} height={bar.below * scale} />
            )}
            {index % labelEvery === 0 && (
              <text className="chart__label" x={x + width / 2} y={HEIGHT - 8} textAnchor="middle">
                {bar.label.replace(/^Week of /, "")}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** What a bar says on hover: one string, as an SVG title must be. */
function hover(bar: Bar, format: (value: number) => string): string {
  const parts = bar.parts.map((part) => `${part.name} ${format(part.value)}`).join(", ") || "nothing";
  return `${bar.label}: ${parts}${bar.below > 0 ? `; given back ${format(bar.below)}` : ""}`;
}

function moneyBars(bars: MoneyBar[]): Bar[] {
  return bars.map((bar) => ({
    label: bar.label,
    parts: bar.received.map((sum, tone) => ({ name: sum.label, value: sum.amount, tone })),
    below: bar.refunded.reduce((total, sum) => total + sum.amount, 0),
  }));
}

function orderBars(bars: OrdersBar[]): Bar[] {
  return bars.map((bar) => ({ label: bar.label, parts: [{ name: "Orders", value: bar.orders, tone: 0 }], below: 0 }));
}

/** The tab's content. */
export function ReportsPanel({ reports }: { reports: Reports }) {
  const refunded = (bar: MoneyBar) => bar.refunded.reduce((total, sum) => total + sum.amount, 0);
  const owingTotal = reports.owing.reduce((total, bucket) => total + bucket.due, 0);
  const barHeading = { day: "Day", week: "Week", month: "Month" }[reports.grouping];
  return (
    <div className="reports">
      <form className="reports__period" method="get" action="/admin">
        <input type="hidden" name="tab" value="reports" />
        <label>
          Period{" "}
          <select name="period" defaultValue={reports.period}>
            {PERIODS.map((period) => (
              <option key={period.id} value={period.id}>
                {period.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="date" name="from" defaultValue={reports.from} />
        </label>
        <label>
          To <input type="date" name="to" defaultValue={reports.to} />
        </label>
        <button type="submit" className="button button--small">
          Show
        </button>
      </form>
      {reports.error && (
        <p className="reports__error" role="alert">
          {reports.error} Showing this month.
        </p>
      )}
      <p className="reports__label">
        {reports.label} (Nairobi days) · <a href={reports.exportUrl}>Download the ledger as CSV</a>
      </p>

      <section className="reports__section" aria-labelledby="reports-money">
        <h2 id="reports-money">{`Money in: ${formatKsh(reports.moneyTotal.total)}`}</h2>
        {reports.methods.length > 0 && (
          <ul className="chart__legend">
            {reports.methods.map((method, tone) => (
              <li key={method.method}>
                <span className={`chart__key chart__bar--${tone}`} aria-hidden="true" /> {method.label}
              </li>
            ))}
            <li>
              <span className="chart__key chart__bar--below" aria-hidden="true" /> Given back
            </li>
          </ul>
        )}
        <BarChart title="Money in by day" bars={moneyBars(reports.money)} format={formatKsh} />
        <div className="table-scroll">
          <table className="reports__table">
            <thead>
              <tr>
                <th scope="col">{barHeading}</th>
                {reports.methods.map((method) => (
                  <th scope="col" key={method.method}>
                    {method.label}
                  </th>
                ))}
                <th scope="col">Given back</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {reports.money.map((bar) => (
                <tr key={bar.start}>
                  <th scope="row">{bar.label}</th>
                  {bar.received.map((sum) => (
                    <td key={sum.method}>{formatKsh(sum.amount)}</td>
                  ))}
                  <td>{formatKsh(refunded(bar))}</td>
                  <td>{formatKsh(bar.total)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">In all</th>
                {reports.moneyTotal.received.map((sum) => (
                  <td key={sum.method}>{formatKsh(sum.amount)}</td>
                ))}
                <td>{formatKsh(refunded(reports.moneyTotal))}</td>
                <td>{formatKsh(reports.moneyTotal.total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>

      <section className="reports__section" aria-labelledby="reports-orders">
        <h2 id="reports-orders">{`Orders: ${reports.ordersTotal.orders}, ${reports.ordersTotal.kilos} kg`}</h2>
        <BarChart
          title="Orders by day"
          bars={orderBars(reports.orders)}
          format={(value) => String(Math.round(value))}
        />
        <div className="table-scroll">
          <table className="reports__table">
            <thead>
              <tr>
                <th scope="col">{barHeading}</th>
                <th scope="col">Orders</th>
                <th scope="col">Kilos</th>
                <th scope="col">Billed</th>
              </tr>
            </thead>
            <tbody>
              {reports.orders.map((bar) => (
                <tr key={bar.start}>
                  <th scope="row">{bar.label}</th>
                  <td>{bar.orders}</td>
                  <td>{bar.kilos}</td>
                  <td>{formatKsh(bar.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">In all</th>
                <td>{reports.ordersTotal.orders}</td>
                <td>{reports.ordersTotal.kilos}</td>
                <td>{formatKsh(reports.ordersTotal.amount)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>

      <section className="reports__section" aria-labelledby="reports-owing">
        <h2 id="reports-owing">{`Owed after delivery: ${formatKsh(owingTotal)}`}</h2>
        <p className="reports__note">Now, whatever the period: by days since the order was delivered.</p>
        {reports.owing.map((bucket) => (
          <details key={bucket.label} className="reports__owing">
            <summary>
              {`${bucket.label}: ${formatKsh(bucket.due)} (${bucket.orders.length} ${bucket.orders.length === 1 ? "order" : "orders"})`}
            </summary>
            {bucket.orders.length > 0 && (
              <ul>
                {bucket.orders.map((order) => (
                  <li key={order.reference}>
                    #{order.reference} {order.name}: {formatKsh(order.due)}, delivered {order.delivered} ({order.days}{" "}
                    {order.days === 1 ? "day" : "days"} ago)
                  </li>
                ))}
              </ul>
            )}
          </details>
        ))}
      </section>
    </div>
  );
}
