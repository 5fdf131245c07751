// The "Reports" tab: a period picker (a plain GET form, so it works without JavaScript), then for
// the period the money taken in by method with what was given back, the orders, kilos and pieces
// booked, the delivered orders that still owe by how long ago, turnaround and windows kept with
// the missed stops and re-cleans, the customers, and each day's cash-up. Each chart is SVG drawn
// with the page on the server (readable and printable without JavaScript, no chart library
// shipped); the table beneath it holds the exact figures. Staff see the sections the owner shares
// (a section they may not see is null); the owner also has the downloads and the sharing form.
import type { Reports } from "../../lib/generated/Reports";
import { ReportCashSection } from "./ReportCashSection";
import { ReportCustomersSection } from "./ReportCustomersSection";
import { ReportMoneySection } from "./ReportMoneySection";
import { ReportOrdersSection } from "./ReportOrdersSection";
import { ReportOwingSection } from "./ReportOwingSection";
import { ReportPeriodForm } from "./ReportPeriodForm";
import { ReportServiceSection } from "./ReportServiceSection";
import { ReportSharingForm } from "./ReportSharingForm";

/** The tab's content. */
export function ReportsPanel({ reports, csrf }: { reports: Reports; csrf: string }) {
  const heading = { day: "Day", week: "Week", month: "Month" }[reports.grouping];
  return (
    <div className="reports">
      <ReportPeriodForm reports={reports} />
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
      {reports.money && <ReportMoneySection money={reports.money} heading={heading} />}
      {reports.orders && <ReportOrdersSection orders={reports.orders} heading={heading} />}
      {reports.owing && <ReportOwingSection owing={reports.owing} />}
      {reports.service && <ReportServiceSection service={reports.service} />}
      {reports.customers && <ReportCustomersSection customers={reports.customers} />}
      {reports.cash && <ReportCashSection cash={reports.cash} />}
      {reports.sharing && <ReportSharingForm sharing={reports.sharing} reports={reports} csrf={csrf} />}
    </div>
  );
}
