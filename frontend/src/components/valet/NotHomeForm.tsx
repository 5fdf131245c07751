// "Not home / not ready": the valet could not pick up or deliver. Folded away under its summary so
// that it is not pressed by mistake (a <details>, which opens without JavaScript); the reason is
// one of the usual ones, as radio buttons that any phone shows. The customer gets a text to choose
// a new window, and staff see the stop at the top of the dashboard.
import type { ValetStop } from "../../lib/generated/ValetStop";
import type { SentBack } from "../../lib/valet";
import { type FormContext, StopForm } from "./StopForm";

/** The usual reasons, as the valet picks them. */
export const MISSED_REASONS = [
  "Not home",
  "Laundry not ready",
  "Could not find the place",
  "Asked to come another day",
];

/** The form of a stop the valet could not do. */
export function NotHomeForm({ stop, context, sent }: { stop: ValetStop; context: FormContext; sent: SentBack }) {
  const errorId = `${stop.id}-reason-error`;
  const chosen = sent.values.reason ?? "";
  return (
    <details className="stop__missed" open={sent.message !== null || sent.errors.reason !== undefined}>
      <summary>Not home / not ready</summary>
      <StopForm stopId={stop.id} action="not-home" context={context} message={sent.message} button="Mark missed">
        <fieldset
          className={sent.errors.reason ? "field field--invalid" : "field"}
          aria-describedby={sent.errors.reason ? errorId : undefined}
        >
          <legend>What happened</legend>
          {MISSED_REASONS.map((reason) => (
            <label key={reason} className="choice">
              <input type="radio" name="reason" value={reason} defaultChecked={chosen === reason} required />
              {reason}
            </label>
          ))}
          {sent.errors.reason && (
            <p className="field__error" id={errorId}>
              {sent.errors.reason}
            </p>
          )}
        </fieldset>
        <p className="stop__hint">The customer gets a text to choose a new time.</p>
      </StopForm>
    </details>
  );
}
