// The Reports tab's period picker: a plain GET form to /admin, so it works without JavaScript.
import type { Reports } from "../../lib/generated/Reports";

const PERIODS: readonly { id: Reports["period"]; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "week", label: "This week" },
  { id: "month", label: "This month" },
  { id: "last-month", label: "Last month" },
  { id: "custom", label: "From one day to another" },
];

/** The form, showing the period of the reports shown. */
export function ReportPeriodForm({ reports }: { reports: Reports }) {
  return (
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
  );
}
