// The Reports tab's service: turnaround and windows kept by week, with the missed stops and re-cleans.
import type { ServiceReport } from "../../lib/generated/ServiceReport";
import type { ServiceWeek } from "../../lib/generated/ServiceWeek";
import { formatHours } from "../../lib/admin/reports";
import { type Bar, BarChart } from "./ReportChart";
import { TableScroll } from "./TableScroll";

/** One week's row of the table, or the total's. */
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

/** The section. */
export function ReportServiceSection({ service }: { service: ServiceReport }) {
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
      <TableScroll>
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
      </TableScroll>
      <h3>Re-cleans</h3>
      <TableScroll>
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
      </TableScroll>
    </section>
  );
}
