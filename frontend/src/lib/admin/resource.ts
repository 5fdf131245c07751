// What a dashboard resource shows after each of its requests, and which request is the latest: no React here.
import { type Failure, failureOf } from "./api";

/** A resource loaded from /api/admin/*, as the page shows it. */
export interface Resource<T> {
  data: T;
  /** A load that shows the spinner is in flight. */
  loading: boolean;
  /** The last failure, until a load answers (or the caller clears it). */
  failure: Failure | null;
}

/** How a request ended: its answer, its failure as shown, or given up (a newer request, a change, the page left). */
export type Outcome<T> = { answered: T } | { failed: Failure } | { givenUp: true };

/** The resource before any request: the data the server rendered, and loading when a load starts at once. */
export function resourceOf<T>(data: T, loading = false): Resource<T> {
  return { data, loading, failure: null };
}

/** A load starts: a quiet one (a poll) shows no spinner. */
export function started<T>(resource: Resource<T>, quiet: boolean): Resource<T> {
  return quiet ? resource : { ...resource, loading: true };
}

/**
 * A request ended. An answer replaces the data and clears the failure; a failure is shown over the
 * data kept; a request given up changes neither. The spinner stops when the latest request ends (a
 * newer one still in flight keeps it).
 */
export function settled<T>(resource: Resource<T>, outcome: Outcome<T>, latest: boolean): Resource<T> {
  const loading = latest ? false : resource.loading;
  if ("answered" in outcome) return { data: outcome.answered, loading, failure: null };
  if ("failed" in outcome) return { ...resource, loading, failure: outcome.failed };
  return { ...resource, loading };
}

/** The answer a request brought, or null when it failed or was given up. */
export function answerOf<T>(outcome: Outcome<T>): T | null {
  return "answered" in outcome ? outcome.answered : null;
}

/** Whether a request ended the session: it failed with a 401 (the page then offers the sign-in). */
export function endsSession<T>(outcome: Outcome<T>): boolean {
  return "failed" in outcome && outcome.failed.sessionEnded;
}

/** The data replaced or changed by the caller (a change's answer), the rest kept. */
export function withData<T>(resource: Resource<T>, next: T | ((current: T) => T)): Resource<T> {
  const data = typeof next === "function" ? (next as (current: T) => T)(resource.data) : next;
  return { ...resource, data };
}

/** A failure of another call made for the same data (a save), shown where a load's would be; null clears it. */
export function withFailure<T>(resource: Resource<T>, failure: Failure | null): Resource<T> {
  return { ...resource, failure };
}

/** How `answer`, a request sent with `signal`, ended: once the signal is aborted, whatever came is given up. */
export async function outcomeOf<T>(answer: Promise<T>, signal: AbortSignal): Promise<Outcome<T>> {
  try {
    const data = await answer;
    return signal.aborted ? { givenUp: true } : { answered: data };
  } catch (error) {
    return signal.aborted ? { givenUp: true } : { failed: failureOf(error) };
  }
}

/**
 * The request in flight for one resource. A new request gives up the one in flight, whose answer
 * would be older; a quiet one (a poll) gives way to it instead.
 */
export class LatestRequest {
  private current: AbortController | null = null;
  /** Whether the request in flight is a poll. */
  private polling = false;

  /** Starts a request, giving up the one in flight. */
  start(): AbortController {
    this.current?.abort();
    this.current = new AbortController();
    this.polling = false;
    return this.current;
  }

  /** Starts a quiet request (a poll), or none (null) while another is in flight. */
  startPoll(): AbortController | null {
    if (this.current) return null;
    this.current = new AbortController();
    this.polling = true;
    return this.current;
  }

  /** `request` ended: whether it was the latest (then none is in flight any more). */
  end(request: AbortController): boolean {
    if (this.current !== request) return false;
    this.current = null;
    return true;
  }

  /** Gives up the request in flight (the page left, or a change made its answer old). */
  abort(): void {
    this.current?.abort();
  }

  /** Gives up the request in flight if it is a poll, whose answer a change made old; a load asked for goes on. */
  abortPoll(): void {
    if (this.polling) this.current?.abort();
  }
}
