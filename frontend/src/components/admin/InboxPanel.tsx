// The dashboard's Texts tab: what customers texted to the shop's number, newest first, with a
// status filter and pages. The filter is a GET form to /admin, so it works without JavaScript;
// once hydrated it fetches at once.
import type { ChangeEvent, FormEvent } from "react";
import { useState } from "react";
import type { InboxChanged } from "../../lib/generated/InboxChanged";
import type { InboxPage } from "../../lib/generated/InboxPage";
import type { Failure } from "../../lib/admin/api";
import { adminHref, type ListQuery } from "../../lib/admin/urls";
import { AdminAlert } from "./AdminAlert";
import { InboxCard } from "./InboxCard";
import { Pagination } from "./Pagination";

interface InboxPanelProps {
  page: InboxPage | null;
  failure: Failure | null;
  announcement: string;
  csrf: string;
  onQuery: (query: ListQuery, moveFocus?: boolean) => void;
  onChanged: (changed: InboxChanged, what: string) => void;
  onOpenOrder: (reference: string) => void;
  onSessionEnded: () => void;
}

/** The tab's content. */
export function InboxPanel(props: InboxPanelProps) {
  const { page, csrf, onQuery, onChanged, onOpenOrder, onSessionEnded } = props;
  const [status, setStatus] = useState<string>(page?.filter.status ?? "");
  const applied = { status: page?.filter.status ?? null, page: page?.page ?? 1 };

  function onStatus(event: ChangeEvent<HTMLSelectElement>) {
    setStatus(event.target.value);
    onQuery({ status: event.target.value || null, page: 1 });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onQuery({ status: status || null, page: 1 });
  }

  return (
    <>
      {props.failure && <AdminAlert failure={props.failure} />}
      <p className="visually-hidden" aria-live="polite">
        {props.announcement}
      </p>
      <h2 className="visually-hidden">Texts to the shop&apos;s number</h2>
      <p className="inbox-lead">
        Every text customers send to the shop&apos;s number. Only numbers with a recent order get an automatic reply, a
        few a day; answer the others here, or call them.
      </p>
      <form className="filter-bar" method="get" action="/admin" aria-label="Filter texts" onSubmit={onSubmit}>
        <input type="hidden" name="tab" value="inbox" />
        <div className="field">
          <label htmlFor="inbox-status">Status</label>
          <select id="inbox-status" name="status" value={status} onChange={onStatus}>
            <option value="">All</option>
            <option value="new">New (unread)</option>
            <option value="read">Read</option>
            <option value="handled">Handled</option>
          </select>
        </div>
        <button type="submit" className="button button--primary">
          Filter
        </button>
      </form>
      {page === null ? (
        <p className="admin-empty">Loading the texts...</p>
      ) : page.items.length === 0 ? (
        <p className="admin-empty">No texts yet.</p>
      ) : (
        <div className="message-list">
          {page.items.map((text) => (
            <InboxCard
              key={text.id}
              text={text}
              limit={page.answerLimit}
              csrf={csrf}
              onChanged={onChanged}
              onOpenOrder={onOpenOrder}
              onSessionEnded={onSessionEnded}
            />
          ))}
        </div>
      )}
      {page && (
        <Pagination
          label="Texts"
          page={page.page}
          pageSize={page.pageSize}
          total={page.total}
          href={(number) => adminHref("inbox", { ...applied, page: number })}
          onPage={(number) => onQuery({ ...applied, page: number }, true)}
        />
      )}
    </>
  );
}
