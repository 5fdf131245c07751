// "Picked up": bags, the weighed kg of the order's service, the counted items and one item the
// customer added. The server prices the bill again from the catalogue.
import { describedBy, Field } from "../Field";
import type { PriceItem } from "../../lib/generated/PriceItem";
import type { ValetStop } from "../../lib/generated/ValetStop";
import type { SentBack } from "../../lib/valet";
import { type FormContext, StopForm } from "./StopForm";

/** The weighing form of a pickup stop. */
export function PickupForm({
  stop,
  context,
  sent,
  items,
}: {
  stop: ValetStop;
  context: FormContext;
  sent: SentBack;
  items: PriceItem[];
}) {
  const weighing = stop.weighing;
  if (!weighing) return null;
  const id = (name: string) => `${stop.id}-${name}`;
  const value = (name: string, fallback: number | null) =>
    sent.values[name] ?? (fallback === null ? "" : String(fallback));
  const kgHint = weighing.weighed ? undefined : `Estimate: ${weighing.kg ?? 0} kg`;
  return (
    <StopForm
      stopId={stop.id}
      action="picked-up"
      context={context}
      message={sent.errors.pieces}
      button={weighing.weighed ? "Correct the weighing" : "Picked up"}
    >
      <Field id={id("bags")} label="Bags" error={sent.errors.bags}>
        <input
          id={id("bags")}
          name="bags"
          type="number"
          inputMode="numeric"
          min={1}
          max={20}
          required
          defaultValue={value("bags", stop.bags)}
          aria-invalid={sent.errors.bags ? true : undefined}
          aria-describedby={describedBy(id("bags"), false, sent.errors.bags)}
        />
      </Field>
      {weighing.kgLabel && (
        <Field id={id("kg")} label={`Weighed kg, ${weighing.kgLabel}`} hint={kgHint} error={sent.errors.kg}>
          <input
            id={id("kg")}
            name="kg"
            type="number"
            inputMode="numeric"
            min={1}
            max={500}
            required
            defaultValue={value("kg", weighing.weighed ? weighing.kg : null)}
            aria-invalid={sent.errors.kg ? true : undefined}
            aria-describedby={describedBy(id("kg"), kgHint !== undefined, sent.errors.kg)}
          />
        </Field>
      )}
      {weighing.pieces.map((piece) => {
        const name = `piece.${piece.id}`;
        return (
          <Field key={piece.id} id={id(piece.id)} label={`${piece.label}, counted`} error={sent.errors[name]}>
            <input
              id={id(piece.id)}
              name={name}
              type="number"
              inputMode="numeric"
              min={0}
              defaultValue={value(name, piece.count)}
              aria-invalid={sent.errors[name] ? true : undefined}
              aria-describedby={describedBy(id(piece.id), false, sent.errors[name])}
            />
          </Field>
        );
      })}
      <div className="stop__pair">
        <Field id={id("add-item")} label="Item added" optional error={sent.errors.addItem}>
          <select
            id={id("add-item")}
            name="addItem"
            defaultValue={sent.values.addItem ?? ""}
            aria-invalid={sent.errors.addItem ? true : undefined}
            aria-describedby={describedBy(id("add-item"), false, sent.errors.addItem)}
          >
            <option value="">None</option>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {item.item}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id("add-count")} label="How many" optional error={sent.errors.addCount}>
          <input
            id={id("add-count")}
            name="addCount"
            type="number"
            inputMode="numeric"
            min={1}
            defaultValue={sent.values.addCount ?? ""}
            aria-invalid={sent.errors.addCount ? true : undefined}
            aria-describedby={describedBy(id("add-count"), false, sent.errors.addCount)}
          />
        </Field>
      </div>
    </StopForm>
  );
}
