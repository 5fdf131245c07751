// The "Reports" tab: a period picker (a plain GET form, so it works without JavaScript), then for
// the period the money taken in by method with what was given back, the orders, kilos and pieces
// booked, the delivered orders that still owe by how long ago, turnaround and windows kept with
// the missed stops and re-cleans, the customers, and each day's cash-up. Each chart is SVG drawn
// with the page on the server (readable and printable without JavaScript, no chart library
// shipped); the table beneath it holds the exact figures. Staff see the sections the owner shares
// (a section they may not see is null); the owner also has the downloads and the sharing form.
import type { CustomersReport } from "../../lib/generated/CustomersReport";
import type { MoneyBar } from "../../lib/generated/MoneyBar";
import type { MoneyReport } from "../../lib/generated/MoneyReport";
import type { OrdersBar } from "../../lib/generated/OrdersBar";
import type { OrdersReport } from "../../lib/generated/OrdersReport";
import type { OwingBucket } from "../../lib/generated/OwingBucket";
import type { Reports } from "../../lib/generated/Reports";
import type { ServiceReport } from "../../lib/generated/ServiceReport";
import type { ServiceWeek } from "../../lib/generated/ServiceWeek";
import type { CashDayView } from "../../lib/generated/CashDayView";
import type { SharedSection } from "../../lib/generated/SharedSection";
import type { ReactNode } from "react";
import { formatKsh } from "../../lib/format";
import { type Bar, BarChart } from "./ReportChart";

const PERIODS: readonly { id: Reports["period"]; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "week", label: "This week" },
  { id: "month", label: "This month" },
  { id: "last-month", label: "Last month" },
  { id: "custom", label: "From one day to another" },
];

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

const count = (value: number) => String(Math.round(value));

/** A table that may be wider than a phone: it scrolls, and can be scrolled from the keyboard. */
function Scroll({ children }: { children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0}>
      {children}
    </div>
  );
}

/** Whole hours as "30 h" or, from two days, "3 d 4 h". */
function formatHours(hours: number | null): string {
  if (hours === null) return "–";
  if (hours < 48) return `${hours} h`;
  const rest = hours % 24;
  return rest === 0 ? `${hours / 24} d` : `${Math.floor(hours / 24)} d ${rest} h`;
}

function MoneySection({ money, heading }: { money: MoneyReport; heading: string }) {
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
      <Scroll>
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
      </Scroll>
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

function OrdersSection({ orders, heading }: { orders: OrdersReport; heading: string }) {
  return (
    <section className="reports__section" aria-labelledby="reports-orders">
      <h2 id="reports-orders">{`Orders: ${orders.total.orders}, ${orders.total.kilos} kg`}</h2>
      <BarChart title="Orders by day" bars={orderBars(orders.bars)} format={count} />
      <Scroll>
        <table className="reports__table">
          <thead>
            <tr>
              <th scope="col">{heading}</th>
              <th scope="col">Orders</th>
              <th scope="col">Kilos</th>
              <th scope="col">Billed</th>
            </tr>
          </thead>
          <tbody>
            {orders.bars.map((bar) => (
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
              <td>{orders.total.orders}</td>
              <td>{orders.total.kilos}</td>
              <td>{formatKsh(orders.total.amount)}</td>
            </tr>
          </tfoot>
        </table>
      </Scroll>
      <h3>Pieces by item</h3>
      {orders.items.length === 0 ? (
        <p className="reports__note">No pieces were ordered in this period.</p>
      ) : (
        <Scroll>
          <table className="reports__table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Pieces</th>
              </tr>
            </thead>
            <tbody>
              {orders.items.map((item) => (
                <tr key={item.item}>
                  <th scope="row">{item.label}</th>
                  <td>{item.pieces}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

function OwingSection({ owing }: { owing: OwingBucket[] }) {
  const owingTotal = owing.reduce((total, bucket) => total + bucket.due, 0);
  return (
    <section className="reports__section" aria-labelledby="reports-owing">
      <h2 id="reports-owing">{`Owed after delivery: ${formatKsh(owingTotal)}`}</h2>
      <p className="reports__note">Now, whatever the period: by days since the order was delivered.</p>
      {owing.map((bucket) => (
        <details key={bucket.label} className="reports__owing">
          <summary>
            {`${bucket.label}: ${formatKsh(bucket.due)} (${bucket.orders.length} ${bucket.orders.length === 1 ? "order" : "orders"})`}
          </summary>
          {bucket.orders.length > 0 && (
            <ul>
              {bucket.orders.map((order) => (
                <li key={order.reference}>
                  {`#${order.reference} ${order.name}: ${formatKsh(order.due)}, delivered ${order.delivered} (${order.days} ${order.days === 1 ? "day" : "days"} ago)`}
                </li>
              ))}
            </ul>
          )}
        </details>
      ))}
    </section>
  );
}

function ServiceRow({ week }: { week: ServiceWeek }) {
  const missed = week.pickupsMissed + week.deliveriesMissed;
  return (
    <tr>
      <th scope="row">{week.label}</th>
      <td>{week.delivered}</td>
      <td>{formatHours(week.medianHours)}</td>
      <td>{formatHours(week.p90Hours)}</td>
      <td>{`${week.pickupsKept} of ${week.pickupsDone}`}</td>
      <td>{`${week.deliveriesKept} of ${week.deliveriesDone}`}</td>
      <td>{missed}</td>
      <td>{week.keptShare}</td>
    </tr>
  );
}

function ServiceSection({ service }: { service: ServiceReport }) {
  const bars: Bar[] = service.weeks.map((week) => ({
    label: week.label,
    parts: [{ name: "Median hours", value: week.medianHours ?? 0, tone: 0 }],
    below: 0,
  }));
  const missed = service.total.pickupsMissed + service.total.deliveriesMissed;
  return (
    <section className="reports__section" aria-labelledby="reports-service">
      <h2 id="reports-service">
        {`Turnaround: ${formatHours(service.total.medianHours)} median, windows kept ${service.total.keptShare}, ${missed} missed`}
      </h2>
      <p className="reports__note">
        From pickup to delivery, by the week of delivery. A stop is kept when it is done by the end of its window; a
        missed visit counts against it.
      </p>
      <BarChart title="Median turnaround by week, in hours" bars={bars} format={(value) => `${Math.round(value)} h`} />
      <Scroll>
        <table className="reports__table">
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Delivered</th>
              <th scope="col">Median</th>
              <th scope="col">90th percentile</th>
              <th scope="col">Pickups on time</th>
              <th scope="col">Deliveries on time</th>
              <th scope="col">Missed</th>
              <th scope="col">Kept</th>
            </tr>
          </thead>
          <tbody>
            {service.weeks.map((week) => (
              <ServiceRow key={week.start} week={week} />
            ))}
          </tbody>
          <tfoot>
            <ServiceRow week={service.total} />
          </tfoot>
        </table>
      </Scroll>
      <h3>Re-cleans</h3>
      <Scroll>
        <table className="reports__table">
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Re-cleans</th>
              <th scope="col">Delivered</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {service.recleans.map((month) => (
              <tr key={month.start}>
                <th scope="row">{month.label}</th>
                <td>{month.recleans}</td>
                <td>{month.delivered}</td>
                <td>{month.share}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </section>
  );
}

function CustomersSection({ customers }: { customers: CustomersReport }) {
  const bars: Bar[] = customers.weeks.map((week) => ({
    label: week.label,
    parts: [
      { name: "New", value: week.new, tone: 0 },
      { name: "Returning", value: week.returning, tone: 1 },
    ],
    below: 0,
  }));
  return (
    <section className="reports__section" aria-labelledby="reports-customers">
      <h2 id="reports-customers">
        {`Customers: ${customers.customers}, ${customers.repeatShare} ordered more than once`}
      </h2>
      <ul className="chart__legend">
        <li>
          <span className="chart__key chart__bar--0" aria-hidden="true" /> New
        </li>
        <li>
          <span className="chart__key chart__bar--1" aria-hidden="true" /> Returning
        </li>
      </ul>
      <BarChart title="New and returning customers by week" bars={bars} format={count} />
      <Scroll>
        <table className="reports__table">
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">New</th>
              <th scope="col">Returning</th>
            </tr>
          </thead>
          <tbody>
            {customers.weeks.map((week) => (
              <tr key={week.start}>
                <th scope="row">{week.label}</th>
                <td>{week.new}</td>
                <td>{week.returning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <h3>Top customers by what they paid</h3>
      {customers.top.length === 0 ? (
        <p className="reports__note">Nobody paid in this period.</p>
      ) : (
        <Scroll>
          <table className="reports__table">
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Phone</th>
                <th scope="col">Orders</th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {customers.top.map((customer) => (
                <tr key={customer.phone}>
                  <th scope="row">{customer.name}</th>
                  <td>{customer.phone}</td>
                  <td>{customer.orders}</td>
                  <td>{formatKsh(customer.spend)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

function CashSection({ cash }: { cash: CashDayView[] }) {
  const held = cash.reduce((total, day) => total + day.stillHeld, 0);
  return (
    <section className="reports__section" aria-labelledby="reports-cash">
      <h2 id="reports-cash">{`Cash-up by day: ${formatKsh(held)} still held`}</h2>
      <p className="reports__note">
        Cash taken (less cash given back) against what was handed in for the day. Below zero: more was handed in or
        given back than taken.
      </p>
      {cash.length === 0 ? (
        <p className="reports__note">No cash was taken or handed in in this period.</p>
      ) : (
        <Scroll>
          <table className="reports__table">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Who</th>
                <th scope="col">Taken</th>
                <th scope="col">Handed in</th>
                <th scope="col">Still held</th>
              </tr>
            </thead>
            <tbody>
              {cash.map((day) => (
                <tr key={`${day.day} ${day.holder}`}>
                  <th scope="row">
                    <a href={day.url}>{day.label}</a>
                  </th>
                  <td>{day.holder}</td>
                  <td>{formatKsh(day.collected)}</td>
                  <td>{formatKsh(day.handedIn)}</td>
                  <td>{formatKsh(day.stillHeld)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

function SharingForm({ sharing, reports, csrf }: { sharing: SharedSection[]; reports: Reports; csrf: string }) {
  return (
    <section className="reports__section" aria-labelledby="reports-sharing">
      <h2 id="reports-sharing">What staff see</h2>
      <form method="post" action="/admin/reports/sharing" className="reports__sharing">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="period" value={reports.period} />
        {reports.period === "custom" && (
          <>
            <input type="hidden" name="from" value={reports.from} />
            <input type="hidden" name="to" value={reports.to} />
          </>
        )}
        <fieldset>
          <legend>Staff accounts may see these parts of the reports (phone numbers masked, no downloads):</legend>
          {sharing.map((section) => (
            <label key={section.section}>
              <input type="checkbox" name={section.section} defaultChecked={section.shared} /> {section.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button--small">
          Save
        </button>
      </form>
    </section>
  );
}

/** The tab's content. */
export function ReportsPanel({ reports, csrf }: { reports: Reports; csrf: string }) {
  const heading = { day: "Day", week: "Week", month: "Month" }[reports.grouping];
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
      <p className="reports__label">{`${reports.label} (Nairobi days)`}</p>
      {reports.exports && (
        <p className="reports__downloads">
          Download as CSV: <a href={reports.exports.orders}>orders</a> · <a href={reports.exports.payments}>payments</a>{" "}
          · <a href={reports.exports.ledger}>the ledger</a> ·{" "}
          <a href={reports.exports.summary}>the month&apos;s summary for the accountant</a>
        </p>
      )}
      {reports.money && <MoneySection money={reports.money} heading={heading} />}
      {reports.orders && <OrdersSection orders={reports.orders} heading={heading} />}
      {reports.owing && <OwingSection owing={reports.owing} />}
      {reports.service && <ServiceSection service={reports.service} />}
      {reports.customers && <CustomersSection customers={reports.customers} />}
      {reports.cash && <CashSection cash={reports.cash} />}
      {reports.sharing && <SharingForm sharing={reports.sharing} reports={reports} csrf={csrf} />}
    </div>
  );
}
