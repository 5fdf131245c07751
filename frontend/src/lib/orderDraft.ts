// The order form as the customer left it, kept for this tab (sessionStorage) while it is filled in:
// "Add to order" on /pricing or in another page's search opens `/order?add=<id>`, a new page, and
// without the draft that page would hold only the item just added, not the ones before it nor the
// name and phone already typed. Placed, the order's draft is forgotten; closing the tab forgets it.
import type { FormValues } from "./order";

const KEY = "laundry.orderDraft";
/** Fields that belong to one page, not to the order being filled in. */
const NOT_KEPT = new Set(["idempotencyKey"]);

/** The draft kept for this tab, if any (none when storage is off or the value is not ours). */
export function loadDraft(): Record<string, string> | null {
  try {
    const kept: unknown = JSON.parse(window.sessionStorage.getItem(KEY) ?? "null");
    if (typeof kept !== "object" || kept === null || Array.isArray(kept)) return null;
    const entries = Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    return Object.fromEntries(entries);
  } catch {
    return null;
  }
}

/** Keeps the form's values as the draft. */
export function saveDraft(values: FormValues): void {
  const kept = Object.entries(values).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string" && !NOT_KEPT.has(entry[0]),
  );
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Storage full or off: the form still works, it only forgets across pages.
  }
}

/** Forgets the draft (the order was placed). */
export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}

/** Puts `values` into the form's controls as if the customer had typed them: a box is ticked when
 * its name has a value, a radio when its value is the one kept; a select keeps its own choice when
 * the kept one is not among its options or cannot be chosen (a window now full). */
export function fillForm(form: HTMLFormElement, values: Readonly<Record<string, string>>): void {
  for (const element of Array.from(form.elements)) {
    const control =
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement;
    if (!control) continue;
    if (!element.name || NOT_KEPT.has(element.name)) continue;
    const value = values[element.name];
    if (element instanceof HTMLInputElement && element.type === "checkbox") {
      element.checked = value !== undefined;
    } else if (element instanceof HTMLInputElement && element.type === "radio") {
      if (value !== undefined) element.checked = element.value === value;
    } else if (element instanceof HTMLSelectElement) {
      const option = Array.from(element.options).find((candidate) => candidate.value === value);
      if (option && !option.disabled) element.value = option.value;
    } else if (value !== undefined && element.type !== "hidden") {
      element.value = value;
    }
  }
}
