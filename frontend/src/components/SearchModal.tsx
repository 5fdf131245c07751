// The 'Search Pricing Items' modal of the header (spec sections 2 and 4). Each result also offers
// "Add to order": a link to the order form with the item in it, or, on /order, into the open form.
import { type MouseEvent, useId, useState } from "react";
import { addToOrderHref, requestAddToOrder } from "../lib/addToOrder";
import { formatKsh, itemAnchor } from "../lib/format";
import { searchPriceItems } from "../lib/search";
import type { PriceItem } from "../lib/types";
import { useDialog } from "../lib/useDialog";
import { Icon } from "./Icon";

/** Shown while open; the query and results live only as long as the modal is open. */
export function SearchModal({ priceList, onClose }: { priceList: PriceItem[]; onClose: () => void }) {
  const [query, setQuery] = useState("");
  const dialog = useDialog(true, onClose);
  const titleId = useId();
  const results = searchPriceItems(priceList, query);
  const searched = query.trim() !== "";

  /** On /order the form takes the item and the page stays; elsewhere the link opens the form. */
  const addToOrder = (event: MouseEvent<HTMLAnchorElement>, itemId: string) => {
    if (requestAddToOrder(itemId)) event.preventDefault();
    onClose();
  };

  return (
    <div className="overlay overlay--dim" onClick={onClose}>
      <div
        ref={dialog}
        className="search-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(event) => event.stopPropagation()}
      >
        <div className="search-modal__head">
          <h2 id={titleId} className="search-modal__title">
            Search Pricing Items
          </h2>
          <button type="button" className="icon-button" aria-label="Close search" onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <label className="visually-hidden" htmlFor={`${titleId}-q`}>
          Search for laundry items
        </label>
        <div className="search-modal__field">
          <Icon name="search" />
          <input
            id={`${titleId}-q`}
            data-autofocus
            type="search"
            autoComplete="off"
            placeholder="Search for laundry items..."
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div className="search-modal__body" aria-live="polite">
          {results.length > 0 && (
            <>
              <h3 className="search-modal__count">Search Results ({results.length})</h3>
              <ul className="search-results">
                {results.map((entry) => (
                  <li key={entry.item} className="search-results__item">
                    <a href={`/pricing#${itemAnchor(entry.item)}`} onClick={onClose}>
                      <span>{entry.item}</span>
                      <strong>{formatKsh(entry.price)}</strong>
                    </a>
                    <a
                      className="add-to-order"
                      href={addToOrderHref(entry.id)}
                      onClick={(event) => addToOrder(event, entry.id)}
                    >
                      Add to order<span className="visually-hidden"> – {entry.item}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {searched && results.length === 0 && (
            <div className="search-modal__empty">
              <p>No items found for "{query}"</p>
              <p className="muted">Try searching for: shirt, dress, towel, etc.</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
