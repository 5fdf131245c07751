// The Reports tab's orders: how many, their kilos and what they were billed, and the pieces by item.
import type { OrdersBar } from "../../lib/generated/OrdersBar";
import type { OrdersReport } from "../../lib/generated/OrdersReport";
import { chartCount } from "../../lib/admin/reports";
import { formatKsh } from "../../lib/format";
import { type Bar, BarChart } from "./ReportChart";
import { TableScroll } from "./TableScroll";

/** The chart's bars: the number of orders. */
function orderBars(bars: OrdersBar[]): Bar[] {
  return bars.map((bar) => ({ label: bar.label, parts: [{ name: "Orders", value: bar.orders, tone: 0 }], below: 0 }));
}

/** The section; `heading` names the table's rows (day, week or month). */
export function ReportOrdersSection({ orders, heading }: { orders: OrdersReport; heading: string }) {
  return (
    <section className="reports__section" aria-labelledby="reports-orders">
      <h2 id="reports-orders">{`Orders: ${orders.total.orders}, ${orders.total.kilos} kg`}</h2>
      <BarChart title="Orders by day" bars={orderBars(orders.bars)} format={chartCount} />
      <TableScroll>
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
      </TableScroll>
      <h3>Pieces by item</h3>
      {orders.items.length === 0 ? (
        <p className="reports__note">No pieces were ordered in this period.</p>
      ) : (
        <TableScroll>
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
        </TableScroll>
      )}
    </section>
  );
}
