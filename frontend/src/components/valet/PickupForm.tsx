// "Picked up": bags, the kg of the order's service as the scale reads them (billed rounded up to
// the whole kg, as the field says), the counted items and up to three items the customer added. The
// server prices the bill again from the catalogue.
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
  const kgHint = weighing.weighed ? weighing.kgRule : `Estimate: ${weighing.kg ?? 0} kg. ${weighing.kgRule}`;
  // The first added item's fields, then the others folded away (open when sent back filled in).
  const later = Array.from({ length: Math.max(0, weighing.addedRows - 1) }, (_, index) => index + 2);
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
      <Field
        id={id("door-items")}
        label="Items counted"
        optional
        hint="A quick count with the customer: the shop tags each item and checks it."
        error={sent.errors.doorItems}
      >
        <input
          id={id("door-items")}
          name="doorItems"
          type="number"
          inputMode="numeric"
          min={1}
          max={300}
          defaultValue={value("doorItems", stop.doorItems)}
          aria-invalid={sent.errors.doorItems ? true : undefined}
          aria-describedby={describedBy(id("door-items"), true, sent.errors.doorItems)}
        />
      </Field>
      {weighing.kgLabel && (
        <Field id={id("kg")} label={`Weighed kg, ${weighing.kgLabel}`} hint={kgHint} error={sent.errors.kg}>
          <input
            id={id("kg")}
            name="kg"
            type="number"
            inputMode="decimal"
            step="any"
            min={0.01}
            max={500}
            required
            defaultValue={value("kg", weighing.weighed ? weighing.kg : null)}
            aria-invalid={sent.errors.kg ? true : undefined}
            aria-describedby={describedBy(id("kg"), true, sent.errors.kg)}
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
      <AddedItem row={1} stopId={stop.id} sent={sent} items={items} />
      {later.length > 0 && (
        <details className="stop__more" open={later.some((row) => sentAny(sent, row))}>
          <summary>More items the customer added</summary>
          {later.map((row) => (
            <AddedItem key={row} row={row} stopId={stop.id} sent={sent} items={items} />
          ))}
        </details>
      )}
    </StopForm>
  );
}

/** The fields of the `row`th item added at the door. */
function fieldsOf(row: number): [string, string] {
  return [`addItem.${row}`, `addCount.${row}`];
}

/** Whether the `row`th added item came back with a value or a mistake. */
function sentAny(sent: SentBack, row: number): boolean {
  return fieldsOf(row).some((name) => Boolean(sent.values[name] || sent.errors[name]));
}

/** One item the customer added at the door: which, and how many. */
function AddedItem({ row, stopId, sent, items }: { row: number; stopId: string; sent: SentBack; items: PriceItem[] }) {
  const [item, count] = fieldsOf(row);
  const id = (name: string) => `${stopId}-${name}`;
  const label = row === 1 ? "Item added" : `Item added ${row}`;
  return (
    <div className="stop__pair">
      <Field id={id(item)} label={label} optional error={sent.errors[item]}>
        <select
          id={id(item)}
          name={item}
          defaultValue={sent.values[item] ?? ""}
          aria-invalid={sent.errors[item] ? true : undefined}
          aria-describedby={describedBy(id(item), false, sent.errors[item])}
        >
          <option value="">None</option>
          {items.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.item}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id(count)} label="How many" optional error={sent.errors[count]}>
        <input
          id={id(count)}
          name={count}
          type="number"
          inputMode="numeric"
          min={1}
          defaultValue={sent.values[count] ?? ""}
          aria-label={`How many, ${label.toLowerCase()}`}
          aria-invalid={sent.errors[count] ? true : undefined}
          aria-describedby={describedBy(id(count), false, sent.errors[count])}
        />
      </Field>
    </div>
  );
}
