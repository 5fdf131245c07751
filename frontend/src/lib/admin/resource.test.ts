import { test } from "node:test";
import assert from "node:assert/strict";
import { AdminError, SESSION_ENDED } from "./api";
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

const FAILED = { text: "The server could not be reached.", sessionEnded: false };

test("a load shows the spinner, and a quiet one (a poll) does not", () => {
  const shown = resourceOf(["first page"]);

  assert.deepEqual(started(shown, false), { data: ["first page"], loading: true, failure: null });
  assert.equal(started(shown, true), shown);
});

test("a resource loaded at once shows the spinner from the start", () => {
  assert.deepEqual(resourceOf(null, true), { data: null, loading: true, failure: null });
});

test("an answer replaces the data, stops the spinner and clears the failure shown", () => {
  const failedBefore = { data: ["old"], loading: true, failure: FAILED };

  assert.deepEqual(settled(failedBefore, { answered: ["new"] }, true), {
    data: ["new"],
    loading: false,
    failure: null,
  });
});

test("a failure is shown over the data kept", () => {
  const loading = started(resourceOf(["old"]), false);

  assert.deepEqual(settled(loading, { failed: FAILED }, true), { data: ["old"], loading: false, failure: FAILED });
});

test("a request given up changes neither the data nor the failure shown", () => {
  const failedBefore = { data: ["old"], loading: true, failure: FAILED };

  assert.deepEqual(settled(failedBefore, { givenUp: true }, true), { ...failedBefore, loading: false });
});

test("the spinner stays while a newer request is in flight", () => {
  const loading = started(resourceOf(["old"]), false);

  assert.equal(settled(loading, { givenUp: true }, false).loading, true);
  assert.equal(settled(loading, { answered: ["new"] }, false).loading, true);
});

test("a change's answer replaces or changes the data and keeps the rest", () => {
  const shown = { data: { unread: 2, texts: ["a", "b"] }, loading: true, failure: FAILED };

  assert.deepEqual(withData(shown, { unread: 0, texts: [] }), { ...shown, data: { unread: 0, texts: [] } });
  assert.deepEqual(
    withData(shown, (current) => ({ ...current, unread: 1 })),
    {
      ...shown,
      data: { unread: 1, texts: ["a", "b"] },
    },
  );
});

test("the failure of a save is shown where a load's would be, and cleared when the next save starts", () => {
  const shown = resourceOf("board");

  const failed = withFailure(shown, FAILED);

  assert.deepEqual(failed, { data: "board", loading: false, failure: FAILED });
  assert.deepEqual(withFailure(failed, null), shown);
});

test("a request answers its data", async () => {
  const outcome = await outcomeOf(Promise.resolve({ total: 3 }), new AbortController().signal);

  assert.deepEqual(outcome, { answered: { total: 3 } });
  assert.deepEqual(answerOf(outcome), { total: 3 });
  assert.equal(endsSession(outcome), false);
});

test("a request that failed answers its failure as the dashboard shows it", async () => {
  const outcome = await outcomeOf(Promise.reject(new AdminError("No such order.", 404)), new AbortController().signal);

  assert.deepEqual(outcome, { failed: { text: "No such order.", sessionEnded: false } });
  assert.equal(answerOf(outcome), null);
  assert.equal(endsSession(outcome), false);
});

test("a request answered 401 ends the session", async () => {
  const outcome = await outcomeOf(Promise.reject(new AdminError(SESSION_ENDED, 401)), new AbortController().signal);

  assert.deepEqual(outcome, { failed: { text: SESSION_ENDED, sessionEnded: true } });
  assert.equal(endsSession(outcome), true);
});

test("whatever comes after a request was given up is dropped", async () => {
  const request = new AbortController();
  request.abort();

  const answered = await outcomeOf(Promise.resolve({ total: 3 }), request.signal);
  const failed = await outcomeOf(Promise.reject(new AdminError(SESSION_ENDED, 401)), request.signal);

  assert.deepEqual(answered, { givenUp: true });
  assert.deepEqual(failed, { givenUp: true });
  assert.equal(endsSession(failed), false);
});

test("a new request gives up the one in flight, whose end no longer counts", () => {
  const requests = new LatestRequest();
  const first = requests.start();

  const second = requests.start();

  assert.equal(first.signal.aborted, true);
  assert.equal(second.signal.aborted, false);
  assert.equal(requests.end(first), false);
  assert.equal(requests.end(second), true);
});

test("a poll gives way to a request in flight, and is sent when none is", () => {
  const requests = new LatestRequest();
  const search = requests.start();

  assert.equal(requests.startPoll(), null);
  assert.equal(search.signal.aborted, false);

  requests.end(search);
  const poll = requests.startPoll();
  assert.ok(poll);
  assert.equal(requests.end(poll), true);
});

test("a request given up by a change is still the latest when it ends", () => {
  const requests = new LatestRequest();
  const poll = requests.startPoll();
  assert.ok(poll);

  requests.abort();

  assert.equal(poll.signal.aborted, true);
  assert.equal(requests.startPoll(), null, "it is in flight until it ends");
  assert.equal(requests.end(poll), true);
});

test("a change gives up a poll in flight, but not a load staff asked for", () => {
  const requests = new LatestRequest();
  const search = requests.start();

  requests.abortPoll();

  assert.equal(search.signal.aborted, false);
  requests.end(search);
  const poll = requests.startPoll();
  assert.ok(poll);
  requests.abortPoll();
  assert.equal(poll.signal.aborted, true);
});
