// The satisfaction guarantee on an order's own page (issue 19). A delivered order, within the days
// after delivery: a plain form (works without JavaScript) that asks for a free re-clean of some of
// its lines, with what is wrong and a pickup window; after them, a line saying until when it could
// be asked. A re-clean order's page: which order it cleans again, and what the customer said.
import { Field, describedBy } from "./Field";
import { PickupFields } from "./PickupFields";
import type { RecleanCard as Card } from "../lib/generated/RecleanCard";
import type { RecleanForm } from "../lib/generated/RecleanForm";
import type { RecleanLine } from "../lib/generated/RecleanLine";
import type { RecleanOf } from "../lib/generated/RecleanOf";
import type { RecleanSection } from "../lib/generated/RecleanSection";
import { guaranteeWords, lineChoiceLabel } from "../lib/reclean";

/** The longest description of what is wrong (the server's `MAX_PROBLEM`). */
const MAX_PROBLEM = 500;

interface RecleanCardProps {
  section: RecleanSection;
  /** The order page's token: the form posts to `/t/{token}/reclean`. */
  token: string;
  /** The business's phone, for when no pickup window is free. */
  phone: string;
}

/** The reason no re-clean was booked, above the form. */
function Alert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {message}
    </div>
  );
}

/** A checkbox per cleaned line; one re-cleaned before is shown, not chosen again. */
function LineChoice({ line, sent, invalid }: { line: RecleanLine; sent: readonly string[]; invalid: boolean }) {
  const what = lineChoiceLabel(line);
  if (line.recleanedIn !== null) {
    return (
      <label className="choice is-disabled">
        <input type="checkbox" disabled />
        <span>
          {what} <span className="reclean__taken">{`re-cleaned in order ${line.recleanedIn}`}</span>
        </span>
      </label>
    );
  }
  return (
    <label className="choice">
      <input
        type="checkbox"
        name="line"
        value={String(line.position)}
        defaultChecked={sent.includes(String(line.position))}
        aria-describedby={invalid ? "reclean-lines-error" : undefined}
      />
      <span>{what}</span>
    </label>
  );
}

/** The form, while a line may still be chosen. */
function AskForm({ card, form, token, phone }: { card: Card; form: RecleanForm | null; token: string; phone: string }) {
  const errors: Readonly<Record<string, string | undefined>> = form?.errors ?? {};
  const askable = card.lines.some((line) => line.recleanedIn === null);
  return (
    <form method="post" action={`/t/${token}/reclean`} className="form">
      <fieldset className={errors.lines ? "field field--invalid" : "field"}>
        <legend>What should we clean again?</legend>
        {card.lines.map((line) => (
          <LineChoice key={line.position} line={line} sent={form?.lines ?? []} invalid={Boolean(errors.lines)} />
        ))}
        {errors.lines && (
          <p className="field__error" id="reclean-lines-error">
            {errors.lines}
          </p>
        )}
      </fieldset>
      {askable ? (
        <>
          <Field
            id="reclean-problem"
            label="What is wrong?"
            hint="A few words: a stain that stayed, a tear, a smell, something missing."
            error={errors.problem}
          >
            <textarea
              id="reclean-problem"
              name="problem"
              rows={3}
              maxLength={MAX_PROBLEM}
              required
              defaultValue={form?.problem ?? ""}
              aria-invalid={errors.problem ? true : undefined}
              aria-describedby={describedBy("reclean-problem", true, errors.problem)}
            />
          </Field>
          {card.pickup && (
            <PickupFields
              choices={card.pickup}
              sent={{ pickup: form?.pickup }}
              errors={errors}
              phone={phone}
              rush={false}
            />
          )}
          <button type="submit" className="button button--primary button--block">
            Ask for a free re-clean
          </button>
        </>
      ) : (
        <p>Every item of this order went for a free re-clean already.</p>
      )}
    </form>
  );
}

/** The card `#reclean` of a delivered order; a refusal on an order without one. */
export function RecleanCard({ section, token, phone }: RecleanCardProps) {
  const { card, form } = section;
  if (!card) {
    if (!form?.alert) return null;
    return (
      <section className="card reclean" id="reclean" aria-labelledby="reclean-title">
        <h2 id="reclean-title">Free Re-clean</h2>
        <Alert message={form.alert} />
      </section>
    );
  }
  return (
    <section className="card reclean" id="reclean" aria-labelledby="reclean-title">
      <h2 id="reclean-title">Not happy with something?</h2>
      <Alert message={form?.alert} />
      {card.open ? (
        <>
          <p>{guaranteeWords(card.days, card.until)} Tell us what is wrong and when to pick it up.</p>
          <AskForm card={card} form={form} token={token} phone={phone} />
        </>
      ) : (
        !form?.alert && (
          <p>{`Free re-cleans could be asked for until ${card.until}. Call or WhatsApp us if something is wrong.`}</p>
        )
      )}
    </section>
  );
}

/** On a re-clean order's page: the order it cleans again, and what is wrong. */
export function RecleanOfNote({ of }: { of: RecleanOf }) {
  return (
    <section className="card reclean-of" aria-labelledby="reclean-of-title">
      <h2 id="reclean-of-title">{`Free re-clean of order ${of.order}`}</h2>
      <p>
        You told us: <q>{of.problem}</q>
      </p>
      <p>Under our satisfaction guarantee we clean it again at no cost: KSh 0, nothing to pay.</p>
    </section>
  );
}
