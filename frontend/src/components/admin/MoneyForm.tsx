// The shell of the small forms that change an order's money or record cash (a refund, a discount,
// a correction, store credit, cash handed in): a legend, a line that says what it does, labelled
// fields with the server's message under each, the failure, and the button that saves beside
// Cancel. The focus moves into it when it opens and to the first wrong field after an answer;
// Escape closes it.
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import type { Failure } from "../../lib/admin/api";
import { describedBy, Field } from "../Field";
import { AdminAlert } from "./AdminAlert";

interface MoneyFormProps {
  id: string;
  legend: string;
  /** What saving does, in a sentence. */
  lead?: ReactNode;
  /** The saving button's words. */
  submit: string;
  saving: boolean;
  /** The fields' messages: a change moves the focus to the first wrong field. */
  errors: Record<string, string>;
  failure: Failure | null;
  onSubmit: () => void;
  onClose: () => void;
  children?: ReactNode;
}

/** The form. */
export function MoneyForm(props: MoneyFormProps) {
  const { id, legend, lead, submit, saving, errors, failure, onSubmit, onClose, children } = props;
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input, textarea, button")?.focus();
  }, []);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  }

  return (
    <form ref={form} id={id} className="payment-panel money-form" onSubmit={save} onKeyDown={onKeyDown} noValidate>
      <fieldset>
        <legend>{legend}</legend>
        {lead && <p className="payment-panel__lead">{lead}</p>}
        {children && <div className="payment-panel__fields">{children}</div>}
      </fieldset>
      {failure && <AdminAlert failure={failure} />}
      <div className="payment-panel__actions">
        {/* Not disabled while saving: that would drop the keyboard focus; a second press is ignored. */}
        <button type="submit" className="button button--primary">
          {saving ? "Saving…" : submit}
        </button>
        <button type="button" className="button button--outline" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface MoneyFieldProps {
  id: string;
  label: string;
  hint?: string;
  optional?: boolean;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
  /** An amount: the phone shows its number pad. */
  numeric?: boolean;
  maxLength?: number;
}

/** One text field of a money form, with its hint and the server's message. */
export function MoneyField({ id, label, hint, optional, error, value, onChange, numeric, maxLength }: MoneyFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} optional={optional} error={error}>
      <input
        id={id}
        type="text"
        inputMode={numeric ? "numeric" : undefined}
        autoComplete="off"
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, Boolean(hint), error)}
      />
    </Field>
  );
}
