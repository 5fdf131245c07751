// One change a dashboard form sends (a refund, a discount, cash handed in…): whether it is being
// saved, the server's message for each of the form's fields (a 422's `fields`), and the failure to
// show for anything else. A second press while saving is ignored.
import { useState } from "react";
import { type Failure, splitFailure } from "./api";

/** The state of a form's change, and `send`, which runs the call and answers its result or null. */
export function useChange(fields: readonly string[], onSessionEnded: () => void) {
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure | null>(null);

  async function send<T>(call: () => Promise<T>): Promise<T | null> {
    if (saving) return null;
    setSaving(true);
    setErrors({});
    setFailure(null);
    try {
      return await call();
    } catch (error) {
      const split = splitFailure(error, fields);
      if (split.failure?.sessionEnded) onSessionEnded();
      setErrors(split.errors);
      setFailure(split.failure);
      return null;
    } finally {
      setSaving(false);
    }
  }

  return { saving, errors, failure, setErrors, send };
}
