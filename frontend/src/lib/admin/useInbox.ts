// The inbox tab's data: the page of texts the server rendered (or null until the tab is first
// opened), loading it anew (filter, page, poll), and the answer to a change made on a card.
import { useState } from "react";
import type { InboxChanged } from "../generated/InboxChanged";
import type { InboxPage } from "../generated/InboxPage";
import { adminGet } from "./api";
import { listApiPath, type ListQuery } from "./urls";
import { useResource } from "./useResource";

/** The inbox's state and calls. */
export function useInbox(initial: InboxPage | null, onSessionEnded: () => void) {
  const inbox = useResource<InboxPage | null, ListQuery>({
    fetch: (signal, query) => adminGet<InboxPage>(listApiPath("inbox", query), signal),
    initial,
    onSessionEnded,
  });
  const [announcement, setAnnouncement] = useState("");
  const page = inbox.data;

  /** The poll: the same filter and page as shown. */
  function refresh(): Promise<unknown> {
    if (!page) return Promise.resolve();
    return inbox.load({ status: page.filter.status, page: page.page }, true);
  }

  /** A card's change: the text as it now is, and the unread count. */
  function changed({ text, unread }: InboxChanged, what: string) {
    // A poll in flight may predate the change.
    inbox.abort();
    inbox.setData((current) =>
      current
        ? { ...current, unread, items: current.items.map((item) => (item.id === text.id ? text : item)) }
        : current,
    );
    setAnnouncement(what);
  }

  // `load` fetches a page; a newer request cancels this one, and a quiet one (a poll) shows no spinner.
  return { page, loading: inbox.loading, failure: inbox.failure, announcement, load: inbox.load, refresh, changed };
}
