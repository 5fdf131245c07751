// The "Awaiting confirmation" panel's data once hydrated: the list the server rendered, refreshed
// by the dashboard's poll, and replaced by the answer of a confirmation or a move.
import { useEffect, useState } from "react";
import { getAwaiting } from "./api";
import { LatestRequest } from "./resource";
import type { AwaitingList, SlotConfirmed } from "./types";

/** The list, the poll that refreshes it, and what a change answered. */
export function useAwaiting(initial: AwaitingList) {
  const [list, setList] = useState(initial);
  const [announcement, setAnnouncement] = useState("");
  const [polls] = useState(() => new LatestRequest());

  useEffect(() => () => polls.abort(), [polls]);

  /** The poll: the list as it is now. A failure keeps the list shown (the orders' poll reports it). */
  async function refresh(): Promise<void> {
    const request = polls.startPoll();
    if (!request) return;
    try {
      setList(await getAwaiting(request.signal));
    } finally {
      polls.end(request);
    }
  }

  /** A confirmation or move was saved: its answer carries the list after it. */
  function changed(answer: SlotConfirmed, moved: boolean) {
    // A poll in flight may predate the change and would show the order again.
    polls.abort();
    setList(answer.awaiting);
    setAnnouncement(
      moved
        ? `Order ${answer.orderId}: pickup moved to ${answer.pickupLabel} and confirmed.`
        : `Order ${answer.orderId}: pickup confirmed for ${answer.pickupLabel}.`,
    );
  }

  return { list, announcement, refresh, changed };
}
