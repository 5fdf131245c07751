// /admin/orders/{id}/items: an order's intake. Each item gets a tag (the order ID and its number),
// with what it is, its colour, brand or note, stains and damage seen, and photos from the phone's
// camera or a file; the bags, the rack it hangs on once ready, the valet's count at delivery and the
// customer's claims. Every form is a plain post that works without JavaScript.
import { useId } from "react";
import { PhotoField } from "../components/PhotoField";
import { Field, describedBy } from "../components/Field";
import { StaffPageHead } from "../components/admin/StaffPageHead";
import type { ClaimView } from "../lib/generated/ClaimView";
import type { GarmentView } from "../lib/generated/GarmentView";
import type { GarmentsPageProps } from "../lib/generated/GarmentsPageProps";
import { formatDateTime, formatKsh } from "../lib/format";
import { statusLabel } from "../lib/tracking";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the intake page. */
export type GarmentsProps = SharedProps & GarmentsPageProps;

/** Title and description for the document shell; 422 when a form came back with its errors. */
export function meta(props: GarmentsProps): PageMeta {
  const refused = Object.keys(props.errors).length > 0;
  return {
    title: `Items of order ${props.reference} | ${props.business.name}`,
    description: "The order's items, tags, photos, bags and rack.",
    ...(refused ? { status: 422 } : {}),
  };
}

/** How a claim was resolved, in words. */
export function claimOutcome(claim: ClaimView): string {
  switch (claim.outcome) {
    case null:
      return "Open";
    case "note":
      return "Answered";
    case "reclean":
      return "Re-clean offered";
    case "refund":
      return `${formatKsh(claim.amount ?? 0)} off, ${formatKsh(claim.givenBack ?? 0)} given back`;
    case "credit":
      return `${formatKsh(claim.amount ?? 0)} off, ${formatKsh(claim.givenBack ?? 0)} kept as credit`;
  }
}

/** A photo's thumbnail, opening the photo. */
export function PhotoThumb({ url, thumbUrl, label }: { url: string; thumbUrl: string; label: string }) {
  return (
    <a className="photo-thumb" href={url} target="_blank" rel="noreferrer">
      <img src={thumbUrl} alt={label} loading="lazy" width={120} height={120} />
    </a>
  );
}

function ItemCard({
  item,
  reference,
  csrf,
  error,
}: {
  item: GarmentView;
  reference: string;
  csrf: string;
  /** What was wrong with the photo just sent for this item. */
  error: string | undefined;
}) {
  const photoId = useId();
  const described = [item.colour, item.note].filter((part) => part !== "").join(" · ");
  return (
    <li className="garment card" id={`tag-${item.tag}`}>
      <div className="garment__head">
        <span className="garment__tag">{item.label}</span>
        <strong>{item.item}</strong>
        {described && <span className="garment__note">{described}</span>}
      </div>
      {item.damage && <p className="garment__damage">{`Noted: ${item.damage}`}</p>}
      {item.photos.length > 0 && (
        <div className="garment__photos">
          {item.photos.map((photo, at) => (
            <PhotoThumb
              key={photo.url}
              url={photo.url}
              thumbUrl={photo.thumbUrl}
              label={`Photo ${at + 1} of ${item.label}`}
            />
          ))}
        </div>
      )}
      <form
        className="garment__photo-form"
        method="post"
        encType="multipart/form-data"
        action={`/admin/orders/${reference}/items/${item.tag}/photos?csrf=${encodeURIComponent(csrf)}`}
      >
        <label htmlFor={photoId}>{`Add a photo of ${item.label}`}</label>
        <input
          id={photoId}
          name="photo"
          type="file"
          accept="image/*"
          capture="environment"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${photoId}-error` : undefined}
        />
        <button type="submit" className="button button--outline button--small">
          Add photo
        </button>
        {error && (
          <p className="field__error" id={`${photoId}-error`}>
            {error}
          </p>
        )}
      </form>
      <details className="garment__remove">
        <summary>Remove this item</summary>
        <form method="post" action={`/admin/orders/${reference}/items/${item.tag}/remove`}>
          <input type="hidden" name="csrf" value={csrf} />
          <p>{`Recorded by mistake? Its tag ${item.label} is not used again.`}</p>
          <button type="submit" className="button button--danger button--small">
            {`Remove ${item.label}`}
          </button>
        </form>
      </details>
    </li>
  );
}

/** The intake page. */
export default function GarmentsPage(props: GarmentsProps) {
  const ids = {
    item: useId(),
    colour: useId(),
    note: useId(),
    damage: useId(),
    photo: useId(),
    bags: useId(),
    rack: useId(),
    names: useId(),
  };
  const { errors, values, reference, csrf } = props;
  const itemCount = props.items.length;
  return (
    <>
      <StaffPageHead
        title={`Order ${reference}: items and tags`}
        lead={`${props.customerName} · ${statusLabel(props.status)}`}
      />
      <section className="section section--admin garments-page">
        <div className="container">
          {props.notice && (
            <p className="alert alert--success" role="status">
              {props.notice}
            </p>
          )}
          {errors.items && (
            <p className="alert alert--error" role="alert">
              {errors.items}
            </p>
          )}
          <nav className="garments-page__links" aria-label="Tags and the shop floor">
            <a className="button button--primary" href={`/admin/orders/${reference}/tags?size=58`}>
              Print tags (58 mm)
            </a>
            <a className="button button--outline" href={`/admin/orders/${reference}/tags?size=80`}>
              80 mm
            </a>
            <a className="button button--outline" href={`/admin/orders/${reference}/tags?size=a4`}>
              A4 sheet
            </a>
            <a className="button button--outline" href="/admin/garments">
              Shop floor: scan, racks, claims
            </a>
          </nav>

          <div className="garments-page__grid">
            <div className="garments-page__side">
              <form
                className="card garments-page__form"
                method="post"
                encType="multipart/form-data"
                action={`/admin/orders/${reference}/items?csrf=${encodeURIComponent(csrf)}`}
                aria-labelledby="add-title"
              >
                <h2 id="add-title">Record an item</h2>
                <Field id={ids.item} label="Item" error={errors.item}>
                  <input
                    id={ids.item}
                    name="item"
                    type="text"
                    list={ids.names}
                    maxLength={60}
                    required
                    defaultValue={values.item}
                    aria-invalid={errors.item ? true : undefined}
                    aria-describedby={describedBy(ids.item, false, errors.item)}
                  />
                </Field>
                <datalist id={ids.names}>
                  {props.itemNames.map((name) => (
                    <option key={name} value={name} />
                  ))}
                </datalist>
                <Field id={ids.colour} label="Colour" optional error={errors.colour}>
                  <input
                    id={ids.colour}
                    name="colour"
                    type="text"
                    maxLength={30}
                    defaultValue={values.colour}
                    aria-invalid={errors.colour ? true : undefined}
                    aria-describedby={describedBy(ids.colour, false, errors.colour)}
                  />
                </Field>
                <Field id={ids.note} label="Brand or note" optional error={errors.note}>
                  <input
                    id={ids.note}
                    name="note"
                    type="text"
                    maxLength={80}
                    defaultValue={values.note}
                    aria-invalid={errors.note ? true : undefined}
                    aria-describedby={describedBy(ids.note, false, errors.note)}
                  />
                </Field>
                <Field
                  id={ids.damage}
                  label="Stains or damage seen"
                  optional
                  hint="Written down before cleaning, with a photo: a claim is answered from it."
                  error={errors.damage}
                >
                  <textarea
                    id={ids.damage}
                    name="damage"
                    rows={2}
                    maxLength={300}
                    defaultValue={values.damage}
                    aria-invalid={errors.damage ? true : undefined}
                    aria-describedby={describedBy(ids.damage, true, errors.damage)}
                  />
                </Field>
                <PhotoField
                  id={ids.photo}
                  label="Photo"
                  hint="Opens the camera on a phone. JPEG, PNG or WebP, up to 15 MB."
                  error={errors.photo}
                />
                <button type="submit" className="button button--primary">
                  Record item and tag
                </button>
              </form>

              <form
                className="card garments-page__form"
                id="bags"
                method="post"
                action={`/admin/orders/${reference}/bags`}
              >
                <input type="hidden" name="csrf" value={csrf} />
                <Field id={ids.bags} label="Bags" error={errors.bags}>
                  <input
                    id={ids.bags}
                    name="bags"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={30}
                    required
                    defaultValue={props.bags ?? undefined}
                    aria-invalid={errors.bags ? true : undefined}
                    aria-describedby={describedBy(ids.bags, false, errors.bags)}
                  />
                </Field>
                <button type="submit" className="button button--outline">
                  Save bags
                </button>
              </form>

              <form
                className="card garments-page__form"
                id="rack"
                method="post"
                action={`/admin/orders/${reference}/rack`}
              >
                <input type="hidden" name="csrf" value={csrf} />
                {props.rack ? (
                  <p>
                    Hangs on rack <strong>{props.rack}</strong>.
                  </p>
                ) : (
                  <p>Not on a rack yet. Marking the order ready asks for its rack.</p>
                )}
                {props.missingSince && (
                  <p className="alert alert--error">{`Not found on its rack at the audit of ${formatDateTime(props.missingSince)}. Hang it again once found.`}</p>
                )}
                <Field id={ids.rack} label="Rack" error={errors.rack}>
                  <select
                    id={ids.rack}
                    name="rack"
                    defaultValue={props.rack ?? ""}
                    required
                    aria-invalid={errors.rack ? true : undefined}
                    aria-describedby={describedBy(ids.rack, false, errors.rack)}
                  >
                    <option value="" disabled>
                      Choose a rack
                    </option>
                    {props.racks.map((rack) => (
                      <option key={rack} value={rack}>
                        {rack}
                      </option>
                    ))}
                  </select>
                </Field>
                <button type="submit" className="button button--outline">
                  {props.rack ? "Move to this rack" : "Hang on this rack"}
                </button>
              </form>

              {props.count && (
                <section className="card" aria-labelledby="count-title">
                  <h2 id="count-title">Count at delivery</h2>
                  <p>{`${props.count.items} items and ${props.count.bags} bags, counted by ${props.count.by} on ${formatDateTime(props.count.at)}.`}</p>
                </section>
              )}

              <section className="card" aria-labelledby="claims-title" id="claims">
                <h2 id="claims-title">Claims</h2>
                {props.claims.length === 0 ? (
                  <p className="admin-empty">No claims.</p>
                ) : (
                  <ul className="claims-list">
                    {props.claims.map((claim) => (
                      <li key={claim.id}>
                        <strong>{claim.kind === "missing" ? "Missing" : "Damaged"}</strong>
                        {claim.tags.length > 0 && ` (${claim.tags.join(", ")})`}
                        {`: ${claim.story} · ${claimOutcome(claim)}`}
                      </li>
                    ))}
                  </ul>
                )}
                {props.claims.some((claim) => claim.outcome === null) && (
                  <a href="/admin/garments#claims">Resolve on the shop floor page</a>
                )}
              </section>
            </div>
            <section className="garments-page__items" aria-labelledby="items-title">
              <h2 id="items-title">{`Items (${itemCount})`}</h2>
              {props.doorItems !== null && (
                <p className={props.doorItems === itemCount ? "garments-page__door" : "alert alert--warning"}>
                  {props.doorItems === itemCount
                    ? `The valet counted ${props.doorItems} items at the door: all are tagged.`
                    : `The valet counted ${props.doorItems} items at the door; ${itemCount} ${itemCount === 1 ? "is" : "are"} tagged here.`}
                </p>
              )}
              {itemCount === 0 ? (
                <p className="admin-empty">No items recorded yet. Record each one below: it gets its own tag.</p>
              ) : (
                <ol className="garments">
                  {props.items.map((item) => (
                    <ItemCard
                      key={item.tag}
                      item={item}
                      reference={reference}
                      csrf={csrf}
                      error={errors[`photo-${item.tag}`]}
                    />
                  ))}
                </ol>
              )}
            </section>
          </div>
        </div>
      </section>
    </>
  );
}
