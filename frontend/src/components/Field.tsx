// A labelled form field: label, control, optional hint, and the server's or browser's message
// when the value is wrong.
import type { ReactNode } from "react";

interface FieldProps {
  id: string;
  label: string;
  /** Shown after the label, as '(Optional)'. */
  optional?: boolean;
  hint?: string;
  /** What is wrong with the value, if anything. */
  error?: string | undefined;
  children: ReactNode;
}

/** The `aria-describedby` of a control inside a [`Field`]: its hint and its error. */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** Wraps one control with its label, hint and error; the control carries the same `id`. */
export function Field({ id, label, optional = false, hint, error, children }: FieldProps) {
  return (
    <div className={error ? "field field--invalid" : "field"}>
      <label htmlFor={id}>
        {label}
        {optional && <span className="field__optional"> (Optional)</span>}
      </label>
      {children}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
