// One piece of the dashboard loaded from /api/admin/*: its data, spinner and failure, and the calls that load it.
import { useCallback, useEffect, useRef, useState } from "react";
import { failureOf } from "./api";
import {
  answerOf,
  endsSession,
  LatestRequest,
  outcomeOf,
  resourceOf,
  settled,
  started,
  withData,
  withFailure,
} from "./resource";

interface ResourceOptions<T, Q> {
  /** The call; `query` is what `load` was given (nothing for a resource loaded by its `key`). */
  fetch: (signal: AbortSignal, query: Q) => Promise<T>;
  /** The data until the first answer: what the server rendered, or null. */
  initial: T;
  /** Told when a failure is the end of the session (401), so that the page offers the sign-in. */
  onSessionEnded: () => void;
  /** When given, the resource is loaded at once and again whenever the key changes. */
  key?: string;
}

/**
 * The resource and its calls. `load` gives up the request in flight (a newer search replaced it);
 * a quiet load (a poll) shows no spinner and gives way to a request in flight. Leaving the page
 * gives up the request in flight, and so does a new `key`.
 */
export function useResource<T, Q = void>({ fetch, initial, onSessionEnded, key }: ResourceOptions<T, Q>) {
  const [resource, setResource] = useState(() => resourceOf(initial, key !== undefined));
  const [requests] = useState(() => new LatestRequest());
  // A new key shows the spinner from the render that brings it, as the docs of React advise
  // (adjusting state when a prop changes), rather than from the effect that sends its request.
  const [shownKey, setShownKey] = useState(key);
  if (key !== shownKey) {
    setShownKey(key);
    setResource((current) => started(current, false));
  }
  // The latest callbacks, read when a request starts or fails: a new function at each render must not load again.
  const latest = useRef({ fetch, onSessionEnded });
  useEffect(() => {
    latest.current = { fetch, onSessionEnded };
  });

  /** Sends a request for `query`: answers the data shown, or null when the load failed or was given up. */
  const send = useCallback(
    async (query: Q, quiet: boolean): Promise<T | null> => {
      const request = quiet ? requests.startPoll() : requests.start();
      if (!request) return null;
      const outcome = await outcomeOf(latest.current.fetch(request.signal, query), request.signal);
      const wasLatest = requests.end(request);
      if (endsSession(outcome)) latest.current.onSessionEnded();
      setResource((current) => settled(current, outcome, wasLatest));
      return answerOf(outcome);
    },
    [requests],
  );

  useEffect(() => {
    // A resource loaded by its key takes no query.
    if (key !== undefined) void send(undefined as Q, false);
    return () => requests.abort();
  }, [key, send, requests]);

  /** Loads the resource for `query`: answers the data shown, or null when the load failed or was given up. */
  function load(query: Q, quiet = false): Promise<T | null> {
    setResource((current) => started(current, quiet));
    return send(query, quiet);
  }

  /** Shows the failure of another call made for the same data (a save) where a load's would be. */
  function fail(error: unknown) {
    const failure = failureOf(error);
    if (failure.sessionEnded) latest.current.onSessionEnded();
    setResource((current) => withFailure(current, failure));
  }

  return {
    data: resource.data,
    loading: resource.loading,
    failure: resource.failure,
    load,
    /** Gives up the request in flight: a change was just shown, and its answer would be older. */
    abort: () => requests.abort(),
    /** Replaces the data, or changes it (`current => next`): the answer of a change made on the page. */
    setData: (next: T | ((current: T) => T)) => setResource((current) => withData(current, next)),
    fail,
    clearFailure: () => setResource((current) => withFailure(current, null)),
  };
}
