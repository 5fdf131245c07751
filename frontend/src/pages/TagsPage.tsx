// /admin/orders/{id}/tags?size=58|80|a4: an order's labels to print. The bag ticket first, then a
// label per item: the tag (order ID and number), "n of N", what it is, and a QR code of the address
// that opens the order for staff. On a 58 mm or 80 mm label printer each label is a page; on A4 they
// are laid out three across. The page is printed as it is shown, without the site's header.
import type { QrView } from "../lib/generated/QrView";
import type { TagsPageProps } from "../lib/generated/TagsPageProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the tags page. */
export type TagsProps = SharedProps & TagsPageProps;

/** Shown on its own: printed, the site's header and footer would waste labels. */
export const bare = true;

/** Title and description for the document shell. */
export function meta(props: TagsProps): PageMeta {
  return {
    title: `Tags of order ${props.reference} | ${props.business.name}`,
    description: "Tag labels and the bag ticket, to print.",
  };
}

/** The page size of each paper, as the printer's driver reads it. */
const PAGE_RULES: Record<string, string> = {
  "58": "@page { size: 58mm 40mm; margin: 0; }",
  "80": "@page { size: 80mm 50mm; margin: 0; }",
  a4: "@page { size: A4; margin: 10mm; }",
};

/** A QR code, with its quiet zone of 2 modules (a label's white edge adds to it). */
export function QrCode({ qr, label }: { qr: QrView; label: string }) {
  const side = qr.size + 4;
  return (
    <svg
      className="tag__qr"
      viewBox={`-2 -2 ${side} ${side}`}
      role="img"
      aria-label={`QR code of ${label}`}
      shapeRendering="crispEdges"
    >
      <rect x={-2} y={-2} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/** The tags page. */
export default function TagsPage(props: TagsProps) {
  const size = props.size in PAGE_RULES ? props.size : "58";
  return (
    <main className={`tags tags--${size}`}>
      <style>{PAGE_RULES[size]}</style>
      <div className="tags__screen-only">
        <h1>{`Tags of order ${props.reference}`}</h1>
        <p>
          {`${props.labels.length - 1} item labels and the bag ticket, for ${size === "a4" ? "an A4 sheet" : `a ${size} mm label printer`}.`}{" "}
          <a href={`/admin/orders/${props.reference}/items`}>Back to the items</a>
        </p>
        <p>
          Paper:{" "}
          <a href={`/admin/orders/${props.reference}/tags?size=58`} aria-current={size === "58" ? "page" : undefined}>
            58 mm
          </a>{" "}
          ·{" "}
          <a href={`/admin/orders/${props.reference}/tags?size=80`} aria-current={size === "80" ? "page" : undefined}>
            80 mm
          </a>{" "}
          ·{" "}
          <a href={`/admin/orders/${props.reference}/tags?size=a4`} aria-current={size === "a4" ? "page" : undefined}>
            A4
          </a>
        </p>
      </div>
      <ol className="tags__list">
        {props.labels.map((tag) => (
          <li className="tag" key={tag.label}>
            <QrCode qr={tag.qr} label={tag.label} />
            <div className="tag__text">
              <p className="tag__label">{tag.label}</p>
              <p className="tag__count">{tag.count}</p>
              <p className="tag__item">{tag.item}</p>
            </div>
          </li>
        ))}
      </ol>
    </main>
  );
}
