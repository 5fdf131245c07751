// The satisfaction guarantee's count: the free re-cleans asked for in each of the last six months
// (Nairobi's calendar, this month last), a compact row beside the stat cards.
import { monthNames } from "../../lib/admin/origin";
import type { MonthCount } from "../../lib/generated/MonthCount";

/** The card: one small column per month. */
export function MonthlyRecleans({ months }: { months: MonthCount[] }) {
  if (months.length === 0) return null;
  return (
    <section className="card monthly-recleans" aria-labelledby="monthly-recleans-heading">
      <h2 id="monthly-recleans-heading">Re-cleans per month</h2>
      <dl className="monthly-recleans__months">
        {months.map((month) => {
          const { short, long } = monthNames(month.month);
          return (
            <div
              key={month.month}
              className={month.count > 0 ? "monthly-recleans__month has-some" : "monthly-recleans__month"}
              title={long}
            >
              <dt>
                <span aria-hidden="true">{short}</span>
                <span className="visually-hidden">{long}</span>
              </dt>
              <dd>{month.count}</dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
