// A labelled form field: label, control, optional hint. Used by the order and contact forms.
import type { ReactNode } from "react";

interface FieldProps {
  id: string;
  label: string;
  /** Shown after the label, as '(Optional)'. */
  optional?: boolean;
  hint?: string;
  children: ReactNode;
}

/** Wraps one control with its label and hint; the control carries the same `id`. */
export function Field({ id, label, optional = false, hint, children }: FieldProps) {
  return (
    <div className="field">
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
    </div>
  );
}
