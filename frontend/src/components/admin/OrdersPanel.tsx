// The dashboard's Orders tab: the filter bar, the orders table and its pagination. The filter bar
// is a GET form to /admin, so it works without JavaScript; once hydrated it fetches the list
// instead, a status at once and a search as the staff member types (debounced) or presses Enter.
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from "react";
import type { OrderChanged, OrdersPage, SlotOption } from "../../lib/admin/types";
import { adminHref, type ListQuery } from "../../lib/admin/urls";
import { statusLabel } from "../../lib/tracking";
import { ORDER_COLUMNS, OrderRow } from "./OrderRow";
import { Pagination } from "./Pagination";

/** How long typing must pause before the search runs. */
const SEARCH_DELAY_MS = 300;

interface OrdersPanelProps {
  orders: OrdersPage;
  statuses: string[];
  /** The racks a ready order hangs on. */
  racks: string[];
  /** The windows ahead: where a cancelled order's collected laundry can go back. */
  slots: SlotOption[];
  csrf: string;
  /** Whether M-PESA prompts are configured. */
  sendsPrompts: boolean;
  /** Fetches another page or filter; `moveFocus` after a page change, for keyboard users. */
  onQuery: (query: ListQuery, moveFocus?: boolean) => void;
  /** Opens an order's detail. */
  onOpen: (id: string) => void;
  onChanged: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
}

/** The tab's content. */
export function OrdersPanel({
  orders,
  statuses,
  racks,
  slots,
  csrf,
  sendsPrompts,
  onQuery,
  onOpen,
  onChanged,
  onSessionEnded,
}: OrdersPanelProps) {
  const [status, setStatus] = useState(orders.filter.status ?? "");
  const [payment, setPayment] = useState(orders.filter.payment ?? "");
  const [q, setQ] = useState(orders.filter.q ?? "");
  const pendingSearch = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const applied = orders.filter;

  useEffect(() => () => clearTimeout(pendingSearch.current), []);

  function search(nextStatus: string, nextQ: string, nextPayment = payment) {
    clearTimeout(pendingSearch.current);
    onQuery({ status: nextStatus || null, payment: nextPayment || null, q: nextQ, page: 1 });
  }

  function onStatus(event: ChangeEvent<HTMLSelectElement>) {
    setStatus(event.target.value);
    search(event.target.value, q);
  }

  function onPayment(event: ChangeEvent<HTMLSelectElement>) {
    setPayment(event.target.value);
    search(status, q, event.target.value);
  }

  function onSearchText(event: ChangeEvent<HTMLInputElement>) {
    const text = event.target.value;
    setQ(text);
    clearTimeout(pendingSearch.current);
    pendingSearch.current = setTimeout(() => search(status, text), SEARCH_DELAY_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    search(status, q);
  }

  return (
    <>
      <h2 className="visually-hidden">Orders</h2>
      <form
        className="filter-bar filter-bar--orders"
        method="get"
        action="/admin"
        role="search"
        aria-label="Search orders"
        onSubmit={onSubmit}
      >
        <input type="hidden" name="tab" value="orders" />
        <div className="field">
          <label htmlFor="orders-status">Status</label>
          <select id="orders-status" name="status" value={status} onChange={onStatus}>
            <option value="">All statuses</option>
            {statuses.map((value) => (
              <option key={value} value={value}>
                {statusLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-payment">Payment</label>
          <select id="orders-payment" name="payment" value={payment} onChange={onPayment}>
            <option value="">Paid and unpaid</option>
            <option value="unpaid">Unpaid</option>
            <option value="paid">Paid</option>
          </select>
        </div>
        <div className="field filter-bar__search">
          <label htmlFor="orders-q">Search name, location, phone or order ID</label>
          <input
            id="orders-q"
            name="q"
            type="search"
            autoComplete="off"
            maxLength={100}
            placeholder="e.g. LX7K2P9Q or 0712 345 678"
            value={q}
            onChange={onSearchText}
          />
        </div>
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>
      {orders.items.length === 0 ? (
        <p className="admin-empty">No orders match.</p>
      ) : (
        <table className="orders-table">
          <caption className="visually-hidden">Orders, newest first</caption>
          <thead>
            <tr>
              {ORDER_COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {orders.items.map((order) => (
              <OrderRow
                key={order.id}
                order={order}
                statuses={statuses}
                racks={racks}
                slots={slots}
                csrf={csrf}
                now={orders.now}
                sendsPrompts={sendsPrompts}
                onOpen={onOpen}
                onChanged={onChanged}
                onSessionEnded={onSessionEnded}
              />
            ))}
          </tbody>
        </table>
      )}
      <Pagination
        label="Orders"
        page={orders.page}
        pageSize={orders.pageSize}
        total={orders.total}
        more={orders.more}
        href={(page) => adminHref("orders", { ...applied, page })}
        onPage={(page) => onQuery({ ...applied, page }, true)}
      />
    </>
  );
}
