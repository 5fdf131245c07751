// The Reports tab's customers: new and returning by week, and the top customers by what they paid.
import type { CustomersReport } from "../../lib/generated/CustomersReport";
import { chartCount } from "../../lib/admin/reports";
import { formatKsh } from "../../lib/format";
import { type Bar, BarChart } from "./ReportChart";
import { TableScroll } from "./TableScroll";

/** The section. */
export function ReportCustomersSection({ customers }: { customers: CustomersReport }) {
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
      <BarChart title="New and returning customers by week" bars={bars} format={chartCount} />
      <TableScroll>
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
      </TableScroll>
      <h3>Top customers by what they paid</h3>
      {customers.top.length === 0 ? (
        <p className="reports__note">Nobody paid in this period.</p>
      ) : (
        <TableScroll>
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
        </TableScroll>
      )}
    </section>
  );
}
