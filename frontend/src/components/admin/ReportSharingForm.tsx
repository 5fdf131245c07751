// The owner's form on the Reports tab: which parts of the reports staff accounts may see.
import type { Reports } from "../../lib/generated/Reports";
import type { SharedSection } from "../../lib/generated/SharedSection";

interface ReportSharingFormProps {
  sharing: SharedSection[];
  /** The reports shown: the form comes back to their period. */
  reports: Reports;
  csrf: string;
}

/** The form, a plain POST (it works without JavaScript). */
export function ReportSharingForm({ sharing, reports, csrf }: ReportSharingFormProps) {
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
