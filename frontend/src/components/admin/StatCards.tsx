// The dashboard's four stat cards (spec section 2): revenue, orders, pending orders, messages.
// Total Revenue is the ledger's net bill of the orders not cancelled, after discounts; beside it, the
// money received (store credit is not money) and the cancelled orders' totals left out. Under them,
// the re-cleans asked for per month (the satisfaction guarantee).
import type { AdminStats } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";
import { MonthlyRecleans } from "./MonthlyRecleans";

/** The four figures, each with its title; revenue and messages with a smaller line under them. */
export function StatCards({ stats }: { stats: AdminStats }) {
  return (
    <>
      <dl className="stat-grid">
        <div className="card stat-card">
          <dt>Total Revenue</dt>
          <dd className="stat-card__value">{formatKsh(stats.totalRevenue)}</dd>
          <dd className="stat-card__note">{formatKsh(stats.paidRevenue)} paid</dd>
          {stats.cancelledRevenue > 0 && (
            <dd className="stat-card__note">{`excl. ${formatKsh(stats.cancelledRevenue)} cancelled`}</dd>
          )}
        </div>
        <div className="card stat-card">
          <dt>Total Orders</dt>
          <dd className="stat-card__value">{stats.totalOrders}</dd>
        </div>
        <div className="card stat-card">
          <dt>Pending Orders</dt>
          <dd className="stat-card__value">{stats.pendingOrders}</dd>
        </div>
        <div className="card stat-card">
          <dt>Messages</dt>
          <dd className="stat-card__value">{stats.messages}</dd>
          <dd className="stat-card__note">{stats.newMessages} new</dd>
        </div>
      </dl>
      <MonthlyRecleans months={stats.recleansPerMonth} />
    </>
  );
}
