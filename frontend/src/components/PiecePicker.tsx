// "Items by the piece" on /order: every price-list item that is ordered on its own, with a plain
// number field named `piece.<id>`, so a form posted without JavaScript carries the counts too.
// Uncontrolled fields: the page reads the form, and the browser's own restore (Back) is kept.
import { formatKsh } from "../lib/format";
import { maxCount, pieceField } from "../lib/order";
import type { PriceItem } from "../lib/types";

interface PiecePickerProps {
  /** The whole price list; General Laundry's entries (a kg service) are left out here. */
  priceList: readonly PriceItem[];
  /** The counts the form starts with (sent back by the server, or added by `?add=`). */
  initial: Readonly<Record<string, string | null>>;
  /** The server's message per wrong field (`piece.shirt`). */
  errors: Readonly<Record<string, string>>;
  /** Open from the start (a count was entered); afterwards the customer or the page opens it. */
  open: boolean;
  /** How many items have a count now. */
  chosen: number;
}

/** A collapsible list of items, each with its price and a count field. */
export function PiecePicker({ priceList, initial, errors, open, chosen }: PiecePickerProps) {
  const items = priceList.filter((item) => (item.service ?? null) === null);
  return (
    <details className="pieces" id="order-pieces" open={open || undefined}>
      <summary className="pieces__toggle">
        Items by the piece{chosen > 0 && <span className="pieces__chosen"> ({chosen} chosen)</span>}
      </summary>
      <p className="field__hint">Shirts, gowns, bedding, curtains and more at their own price. Leave the rest empty.</p>
      <ul className="pieces__list">
        {items.map((item) => {
          const id = `piece-${item.id}`;
          const name = pieceField(item.id);
          const error = errors[name];
          return (
            <li key={item.id} className={error ? "piece piece--invalid" : "piece"}>
              <label htmlFor={id} className="piece__label">
                {item.item}
              </label>
              <span className="piece__price" id={`${id}-price`}>
                {formatKsh(item.price)} {item.unit === "kg" ? "per kg" : "per piece"}
              </span>
              <input
                id={id}
                name={name}
                className="piece__count"
                type="number"
                inputMode="numeric"
                min={0}
                max={maxCount(item.unit)}
                step={1}
                placeholder="0"
                defaultValue={initial[name] ?? ""}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-price ${id}-error` : `${id}-price`}
              />
              {error && (
                <p className="field__error piece__error" id={`${id}-error`}>
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
