// A photo to send with a plain form: a file input that opens the phone's camera (`capture`), or
// picks a file on a desktop; the server checks it is a picture and keeps a copy without metadata.
import { Field, describedBy } from "./Field";

interface PhotoFieldProps {
  id: string;
  label: string;
  hint: string;
  /** What the server said was wrong with the photo sent. */
  error: string | undefined;
}

/** The field, named `photo`, optional. */
export function PhotoField({ id, label, hint, error }: PhotoFieldProps) {
  return (
    <Field id={id} label={label} optional hint={hint} error={error}>
      <input
        id={id}
        name="photo"
        type="file"
        accept="image/*"
        capture="environment"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, true, error)}
      />
    </Field>
  );
}
