// How often the dashboard asks for new orders while it is shown, and the hook that does it.
import { useEffect, useRef } from "react";

/** Every 30 seconds while the tab is shown. */
export const POLL_INTERVAL_MS = 30_000;
/** The shortest interval the test hook may set. */
const SHORTEST_POLL_MS = 500;
/** A test hook: `localStorage["laundry.adminPollMs"]` shortens the interval (browser tests wait less). */
export const POLL_SETTING = "laundry.adminPollMs";

/** The interval: the default, or the test hook's value when it is a number of at least half a second. */
export function pollInterval(setting: string | null): number {
  const chosen = setting === null ? NaN : Number(setting);
  return Number.isFinite(chosen) && chosen >= SHORTEST_POLL_MS ? chosen : POLL_INTERVAL_MS;
}

/** The interval in this browser. */
function currentPollInterval(): number {
  try {
    return pollInterval(window.localStorage.getItem(POLL_SETTING));
  } catch {
    return POLL_INTERVAL_MS; // storage blocked
  }
}

/**
 * Calls `poll` every interval while the page is visible: not while it is hidden (a background tab
 * costs nothing), at once when it is shown again after the interval has passed, and never twice
 * at the same time (the next call waits for the last one to settle).
 */
export function usePolling(poll: () => Promise<unknown>) {
  const latest = useRef(poll);
  useEffect(() => {
    latest.current = poll;
  });

  useEffect(() => {
    const interval = currentPollInterval();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running = false;
    let stopped = false;
    let last = Date.now();

    const schedule = (delay: number) => {
      clearTimeout(timer);
      if (!stopped && document.visibilityState === "visible") timer = setTimeout(tick, delay);
    };
    const tick = () => {
      if (running || stopped) return;
      running = true;
      void latest
        .current()
        .catch(() => undefined)
        .finally(() => {
          running = false;
          last = Date.now();
          schedule(interval);
        });
    };
    const onVisibility = () => {
      if (document.visibilityState !== "visible") return clearTimeout(timer);
      schedule(Math.max(0, interval - (Date.now() - last)));
    };

    schedule(interval);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);
}
