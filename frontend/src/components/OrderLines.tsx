// The lines of an order and its total: in the order summary while the form is filled in, and on the
// confirmation once the server has priced them.
import { formatAmount, lineDetail } from "../lib/order";
import type { OrderLine } from "../lib/generated/OrderLine";
import type { Service } from "../lib/types";

interface OrderLinesProps {
  lines: readonly OrderLine[];
  /** Null while the order is not complete: no total row. */
  total: number | null;
  /** To explain a bundle's price (General Laundry); the confirmation may go without. */
  services?: readonly Service[];
}

/** One row per line (label; quantity and how its amount comes about; amount), then the total. */
export function OrderLines({ lines, total, services }: OrderLinesProps) {
  return (
    <table className="order-lines">
      <caption className="visually-hidden">Your order</caption>
      <thead className="visually-hidden">
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => {
          const detail = lineDetail(line, services);
          return (
            <tr key={`${line.kind}-${line.item}`} className={`order-lines__${line.kind}`}>
              <th scope="row">
                {line.label}
                {detail && <span className="order-lines__detail">{detail}</span>}
              </th>
              <td>{formatAmount(line.amount)}</td>
            </tr>
          );
        })}
      </tbody>
      {total !== null && (
        <tfoot>
          <tr className="order-lines__total">
            <th scope="row">Total</th>
            <td>{formatAmount(total)}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
