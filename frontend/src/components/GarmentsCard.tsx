// On an order's own page (issue 36): the items we took in, each with its tag and the photos taken
// of stains or damage before cleaning; the customer's reports of a missing or damaged item and what
// we did; and, once delivered, a plain form (works without JavaScript) to report one, with a photo.
import { useId } from "react";
import { PhotoField } from "./PhotoField";
import { Field, describedBy } from "./Field";
import type { ClaimView } from "../lib/generated/ClaimView";
import type { CustomerGarments } from "../lib/generated/CustomerGarments";
import { formatDateTime, formatKsh } from "../lib/format";

interface GarmentsCardProps {
  garments: CustomerGarments;
  /** The order page's token: the form posts to `/t/{token}/claims`. */
  token: string;
}

/** What we did about a report, as the customer reads it. */
export function reportAnswer(claim: ClaimView): string {
  switch (claim.outcome) {
    case null:
      return "We are looking into it and will text you.";
    case "note":
      return claim.outcomeNote ?? "Answered by text.";
    case "reclean":
      return "We will clean it again for free.";
    case "refund":
    case "credit": {
      const off = `${formatKsh(claim.amount ?? 0)} off the order`;
      const back = claim.givenBack ?? 0;
      if (back <= 0) return `${off}: you have less to pay.`;
      return claim.outcome === "refund"
        ? `${off}; ${formatKsh(back)} of what you paid is given back to you.`
        : `${off}; ${formatKsh(back)} is kept as credit for your next order.`;
    }
  }
}

/** The card; nothing when no item was recorded and nothing can be reported. */
export function GarmentsCard({ garments, token }: GarmentsCardProps) {
  const ids = { story: useId(), photo: useId(), kind: useId(), tags: useId() };
  const { items, claims, errors } = garments;
  if (items.length === 0 && claims.length === 0 && !garments.mayClaim) return null;
  const refused = Object.keys(errors).length > 0;
  return (
    <section className="card garments-card" id="claims" aria-labelledby="garments-title">
      <h2 id="garments-title">{items.length > 0 ? `Your items (${items.length})` : "Your items"}</h2>
      {items.length > 0 ? (
        <ol className="garments-card__items">
          {items.map((item) => (
            <li key={item.tag}>
              <span className="garment__tag">{item.label}</span>{" "}
              {[item.item, item.colour, item.note].filter((part) => part !== "").join(", ")}
              {item.damage && <p className="garment__damage">{`Noted when we took it in: ${item.damage}`}</p>}
              {item.photos.length > 0 && (
                <span className="garment__photos">
                  {item.photos.map((photo, at) => (
                    <a key={photo.url} className="photo-thumb" href={photo.url} target="_blank" rel="noreferrer">
                      <img
                        src={photo.thumbUrl}
                        alt={`Photo ${at + 1} of ${item.label}`}
                        loading="lazy"
                        width={96}
                        height={96}
                      />
                    </a>
                  ))}
                </span>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p>Each item gets a tag when we take it in at the shop.</p>
      )}
      {garments.bags !== null && <p>{`Bags: ${garments.bags}`}</p>}

      {claims.length > 0 && (
        <>
          <h3>Your reports</h3>
          <ul className="garments-card__claims">
            {claims.map((claim) => (
              <li key={claim.id}>
                <strong>{claim.kind === "missing" ? "Missing" : "Damaged"}</strong>
                {claim.tags.length > 0 && ` (${claim.tags.join(", ")})`}
                {` on ${formatDateTime(claim.openedAt)}: ${claim.story}`}
                <p>{reportAnswer(claim)}</p>
              </li>
            ))}
          </ul>
        </>
      )}

      {garments.mayClaim && (
        <details className="garments-card__report" open={refused}>
          <summary>Is something missing or damaged?</summary>
          <form method="post" action={`/t/${token}/claims`} encType="multipart/form-data" noValidate>
            <fieldset aria-describedby={errors.kind ? `${ids.kind}-error` : undefined}>
              <legend>What happened?</legend>
              <label className="choice">
                <input type="radio" name="kind" value="missing" required /> An item is missing
              </label>
              <label className="choice">
                <input type="radio" name="kind" value="damaged" /> An item came back damaged or stained
              </label>
              {errors.kind && (
                <p className="field__error" id={`${ids.kind}-error`}>
                  {errors.kind}
                </p>
              )}
            </fieldset>
            {items.length > 0 && (
              <fieldset aria-describedby={errors.tags ? `${ids.tags}-error` : undefined}>
                <legend>Which items? (Optional)</legend>
                {items.map((item) => (
                  <label className="choice" key={item.tag}>
                    <input type="checkbox" name="tag" value={String(item.tag)} />{" "}
                    {`${item.label} ${item.item}${item.colour ? `, ${item.colour}` : ""}`}
                  </label>
                ))}
                {errors.tags && (
                  <p className="field__error" id={`${ids.tags}-error`}>
                    {errors.tags}
                  </p>
                )}
              </fieldset>
            )}
            <Field id={ids.story} label="Tell us what happened" error={errors.story}>
              <textarea
                id={ids.story}
                name="story"
                rows={3}
                maxLength={500}
                required
                defaultValue={garments.story}
                aria-invalid={errors.story ? true : undefined}
                aria-describedby={describedBy(ids.story, false, errors.story)}
              />
            </Field>
            <PhotoField
              id={ids.photo}
              label="A photo"
              hint="Of the damage, or of what came back. JPEG, PNG or WebP, up to 15 MB."
              error={errors.photo}
            />
            <button type="submit" className="button button--primary">
              Send report
            </button>
          </form>
        </details>
      )}
    </section>
  );
}
