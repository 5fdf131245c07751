// The Reports tab's cash-up by day: the cash each person took against what they handed in.
import type { CashDayView } from "../../lib/generated/CashDayView";
import { formatKsh } from "../../lib/format";
import { TableScroll } from "./TableScroll";

/** The section; each day links to its cash-up. */
export function ReportCashSection({ cash }: { cash: CashDayView[] }) {
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
        <TableScroll>
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
        </TableScroll>
      )}
    </section>
  );
}
