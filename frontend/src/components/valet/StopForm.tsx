// A form of one stop: a plain post to /valet/stops/{id}/{action} with the session's CSRF token and
// the day and run to come back to, so that it works without JavaScript.
import type { ReactNode } from "react";
import type { ValetAction } from "../../lib/generated/ValetAction";

/** Where a form comes back to, and its token. */
export interface FormContext {
  csrf: string;
  /** Staff standing in: the day and run shown, to come back to. */
  day: string | null;
  valet: string | null;
}

/** One stop's form, a message for the whole form (what was wrong with it), and its button. */
export function StopForm({
  stopId,
  action,
  context,
  message,
  button,
  children,
}: {
  stopId: string;
  action: ValetAction;
  context: FormContext;
  message?: string | null;
  button: string;
  children?: ReactNode;
}) {
  return (
    <form className="stop__form" method="post" action={`/valet/stops/${stopId}/${action}`}>
      <input type="hidden" name="csrf" value={context.csrf} />
      {context.day && <input type="hidden" name="date" value={context.day} />}
      {context.valet && <input type="hidden" name="valet" value={context.valet} />}
      {message && (
        <p className="note note--error" role="alert">
          {message}
        </p>
      )}
      {children}
      <button type="submit" className="button">
        {button}
      </button>
    </form>
  );
}
