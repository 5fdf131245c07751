// The dashboard's Messages tab: a status filter, the message cards and their pagination. The
// filter is a GET form to /admin, so it works without JavaScript; once hydrated it fetches at once.
import type { ChangeEvent, FormEvent } from "react";
import { useState } from "react";
import type { MessageChanged, MessagesPage } from "../../lib/admin/types";
import { adminHref, type ListQuery } from "../../lib/admin/urls";
import { MessageCard } from "./MessageCard";
import { Pagination } from "./Pagination";

interface MessagesPanelProps {
  messages: MessagesPage;
  csrf: string;
  /** Fetches another page or filter; `moveFocus` after a page change, for keyboard users. */
  onQuery: (query: ListQuery, moveFocus?: boolean) => void;
  onChanged: (changed: MessageChanged) => void;
  onSessionEnded: () => void;
}

/** The tab's content. */
export function MessagesPanel({ messages, csrf, onQuery, onChanged, onSessionEnded }: MessagesPanelProps) {
  const [status, setStatus] = useState(messages.filter.status ?? "");
  const applied = messages.filter;

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
      <h2 className="visually-hidden">Messages</h2>
      <form className="filter-bar" method="get" action="/admin" aria-label="Filter messages" onSubmit={onSubmit}>
        <input type="hidden" name="tab" value="messages" />
        <div className="field">
          <label htmlFor="messages-status">Status</label>
          <select id="messages-status" name="status" value={status} onChange={onStatus}>
            <option value="">All</option>
            <option value="new">New</option>
            <option value="handled">Handled</option>
          </select>
        </div>
        <button type="submit" className="button button--primary">
          Filter
        </button>
      </form>
      {messages.items.length === 0 ? (
        <p className="admin-empty">No messages yet.</p>
      ) : (
        <div className="message-list">
          {messages.items.map((message) => (
            <MessageCard
              key={message.id}
              message={message}
              csrf={csrf}
              onChanged={onChanged}
              onSessionEnded={onSessionEnded}
            />
          ))}
        </div>
      )}
      <Pagination
        label="Messages"
        page={messages.page}
        pageSize={messages.pageSize}
        total={messages.total}
        href={(page) => adminHref("messages", { ...applied, page })}
        onPage={(page) => onQuery({ ...applied, page }, true)}
      />
    </>
  );
}
