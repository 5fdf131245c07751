// The few globals React 19's server renderer expects that a bare QuickJS engine does not have.
// Imported first by the server entry and nowhere else; the browser has all of these.
//
// - `performance.now`: React reads it for timings; millisecond precision is enough.
// - `setTimeout` / `clearTimeout` (and the interval pair): a render is synchronous from start to
//   finish, so nothing scheduled for later may run inside it. The timers return ids and never fire.
// - `queueMicrotask`: QuickJS has it in most builds; a promise-based fallback otherwise.
// - `self` / `window` are NOT defined, so that code checking for a browser keeps taking its server path.
// `console` is given by the host (ssr-runtime) and writes to the server's log.

const scope = globalThis as Record<string, unknown>;

if (typeof scope.performance === "undefined") {
  scope.performance = { now: () => Date.now() };
}

if (typeof scope.setTimeout === "undefined") {
  let nextTimer = 1;
  const never = () => nextTimer++;
  scope.setTimeout = never;
  scope.setInterval = never;
  scope.clearTimeout = () => {};
  scope.clearInterval = () => {};
}

if (typeof scope.queueMicrotask === "undefined") {
  scope.queueMicrotask = (task: () => void) => {
    void Promise.resolve().then(task);
  };
}

export {};
