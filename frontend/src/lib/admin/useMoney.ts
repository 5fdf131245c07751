// The money tab's data: the cash-up of the chosen day and the balances not settled (both as the
// server rendered them, or null until the tab is first opened), loading them anew (another day, a
// poll, a change made elsewhere on the page), and the cash-up after cash was handed in.
import { useState } from "react";
import { getBalances, getCashUp } from "./api";
import { stillHeldText } from "./money";
import type { Balances, CashUp } from "./types";
import { useResource } from "./useResource";
import { formatKsh } from "../format";

/** What the tab shows: the cash-up of a day, and the balances. */
interface MoneyData {
  cashUp: CashUp | null;
  balances: Balances | null;
}

/** The cash-up of `day` (YYYY-MM-DD) and the balances, asked for together. */
async function getMoney(signal: AbortSignal, day: string): Promise<MoneyData> {
  const [cashUp, balances] = await Promise.all([getCashUp(day, signal), getBalances(signal)]);
  return { cashUp, balances };
}

/** The money tab's state and calls. */
export function useMoney(initial: MoneyData, onSessionEnded: () => void) {
  const money = useResource({ fetch: getMoney, initial, onSessionEnded });
  const [announcement, setAnnouncement] = useState("");
  const { cashUp, balances } = money.data;

  /** Loads the cash-up of `day` (YYYY-MM-DD) and the balances; a newer request cancels this one.
   * A quiet one (a poll) shows no spinner and gives way to one in flight. */
  async function load(day: string, quiet = false): Promise<CashUp | null> {
    return (await money.load(day, quiet))?.cashUp ?? null;
  }

  /** The poll, and the answer to a change made elsewhere: the day shown, anew. */
  function refresh(): Promise<unknown> {
    return cashUp ? load(cashUp.day, true) : Promise.resolve();
  }

  /** Cash was handed in: the day's cash-up as it now is, and what the holder still holds. */
  function handedIn(fresh: CashUp, holder: string, amount: number) {
    // A poll in flight may predate the handover.
    money.abort();
    money.setData((current) => ({ ...current, cashUp: fresh }));
    const now = fresh.holders.find((shown) => shown.holder === holder);
    const still = now ? ` ${stillHeldText(now)}.` : "";
    setAnnouncement(`${formatKsh(amount)} handed in by ${holder}.${still}`);
  }

  return { cashUp, balances, loading: money.loading, failure: money.failure, announcement, load, refresh, handedIn };
}
