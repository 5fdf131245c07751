// The inbox tab's data: the page of texts the server rendered (or null until the tab is first
// opened), loading it anew (filter, page, poll), and the answer to a change made on a card.
import { useRef, useState } from "react";
import type { InboxChanged } from "../generated/InboxChanged";
import type { InboxPage } from "../generated/InboxPage";
import { adminGet, type Failure, failureOf } from "./api";
import { listApiPath, type ListQuery } from "./urls";

/** The inbox's state and calls. */
export function useInbox(initial: InboxPage | null, onSessionEnded: () => void) {
  const [page, setPage] = useState<InboxPage | null>(initial);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const request = useRef<AbortController | null>(null);

  /** Fetches a page; a newer request cancels this one. A quiet one (a poll) shows no spinner. */
  async function load(query: ListQuery, quiet = false): Promise<InboxPage | null> {
    if (quiet && request.current) return null;
    request.current?.abort();
    const mine = new AbortController();
    request.current = mine;
    if (!quiet) setLoading(true);
    try {
      const fresh = await adminGet<InboxPage>(listApiPath("inbox", query), mine.signal);
      setPage(fresh);
      setFailure(null);
      return fresh;
    } catch (error) {
      if (mine.signal.aborted) return null;
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
      return null;
    } finally {
      if (request.current === mine) {
        request.current = null;
        if (!quiet) setLoading(false);
      }
    }
  }

  /** The poll: the same filter and page as shown. */
  function refresh(): Promise<unknown> {
    if (!page) return Promise.resolve();
    return load({ status: page.filter.status, page: page.page }, true);
  }

  /** A card's change: the text as it now is, and the unread count. */
  function changed({ text, unread }: InboxChanged, what: string) {
    // A poll in flight may predate the change.
    request.current?.abort();
    setPage((current) =>
      current
        ? { ...current, unread, items: current.items.map((item) => (item.id === text.id ? text : item)) }
        : current,
    );
    setAnnouncement(what);
  }

  return { page, loading, failure, announcement, load, refresh, changed };
}
