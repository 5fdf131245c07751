// The money tab's data: the cash-up of the chosen day and the balances not settled (both as the
// server rendered them, or null until the tab is first opened), loading them anew (another day, a
// poll, a change made elsewhere on the page), and the cash-up after cash was handed in.
import { useRef, useState } from "react";
import { type Failure, failureOf, getBalances, getCashUp } from "./api";
import { stillHeldText } from "./money";
import type { Balances, CashUp } from "./types";
import { formatKsh } from "../format";

/** The money tab's state and calls. */
export function useMoney(initial: { cashUp: CashUp | null; balances: Balances | null }, onSessionEnded: () => void) {
  const [cashUp, setCashUp] = useState<CashUp | null>(initial.cashUp);
  const [balances, setBalances] = useState<Balances | null>(initial.balances);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const request = useRef<AbortController | null>(null);

  /** Loads the cash-up of `day` (YYYY-MM-DD) and the balances; a newer request cancels this one.
   * A quiet one (a poll) shows no spinner and gives way to one in flight. */
  async function load(day: string, quiet = false): Promise<CashUp | null> {
    if (quiet && request.current) return null;
    request.current?.abort();
    const mine = new AbortController();
    request.current = mine;
    if (!quiet) setLoading(true);
    try {
      const [fresh, open] = await Promise.all([getCashUp(day, mine.signal), getBalances(mine.signal)]);
      setCashUp(fresh);
      setBalances(open);
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

  /** The poll, and the answer to a change made elsewhere: the day shown, anew. */
  function refresh(): Promise<unknown> {
    return cashUp ? load(cashUp.day, true) : Promise.resolve();
  }

  /** Cash was handed in: the day's cash-up as it now is, and what the holder still holds. */
  function handedIn(fresh: CashUp, holder: string, amount: number) {
    // A poll in flight may predate the handover.
    request.current?.abort();
    setCashUp(fresh);
    const now = fresh.holders.find((shown) => shown.holder === holder);
    const still = now ? ` ${stillHeldText(now)}.` : "";
    setAnnouncement(`${formatKsh(amount)} handed in by ${holder}.${still}`);
  }

  return { cashUp, balances, loading, failure, announcement, load, refresh, handedIn };
}
