// /privacy: the privacy notice, as Kenya's Data Protection Act 2019 asks of a business that keeps
// customers' personal data: what we keep, why, for how long, whom we share it with, and the
// customer's rights. Static: the same for every visitor, so the server renders it once.
import type { PrivacyProps as OwnProps } from "../lib/generated/PrivacyProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the privacy page: the shared ones (the business e-mail comes from them) and how long
 * copies of messages are kept. */
export type PrivacyProps = SharedProps & OwnProps;

/** What we keep, why, and for how long, one row per kind of record. */
const RECORDS: readonly { title: string; what: string; why: string; kept: string }[] = [
  {
    title: "Your orders",
    what: "Your name, phone number, e-mail (if you give it), pickup location, the items and kg, special instructions, price, payment and status.",
    why: "To pick up, clean and deliver your laundry, to bill you and to contact you about your order.",
    kept: "5 years after the order, because Kenyan tax law asks us to keep business records that long.",
  },
  {
    title: "Messages about your order",
    what: "Copies of the e-mails and text messages we send you about an order.",
    why: "To know what you were told and to send again what did not arrive.",
    kept: "As long as the order.",
  },
  {
    title: "Messages you send us",
    what: "Your name, e-mail, phone (if you give it) and your message.",
    why: "To answer you.",
    kept: "1 year after we answer.",
  },
  {
    title: "Staff sign-in records",
    what: "The staff member's e-mail, sign-in times and the internet address of failed sign-ins.",
    why: "To keep the staff area safe.",
    kept: "90 days.",
  },
];

/** Who receives some of your data, only to deliver the service. */
const SHARED_WITH: readonly string[] = [
  "Our e-mail provider, to send order confirmations and updates.",
  "Our text message (SMS) provider, when we text you about your order.",
  "Safaricom, when you pay by M-PESA.",
  "The company that hosts our website and database.",
];

/** Title and description for the document shell. */
export function meta(props: PrivacyProps): PageMeta {
  return {
    title: `Privacy Notice | ${props.business.name}`,
    description: `What personal data ${props.business.name} keeps, why, for how long and whom we share it with, under Kenya's Data Protection Act 2019.`,
  };
}

/** The privacy notice. */
/** How long copies of the messages about an order are kept. */
export function messagesKept(months: number | null): string {
  if (months === null) return "As long as the order.";
  const span =
    months === 1
      ? "1 month"
      : months % 12 === 0
        ? months === 12
          ? "1 year"
          : `${months / 12} years`
        : `${months} months`;
  return `${span} after we send them; the order then keeps only a note of what was sent and when.`;
}

export default function PrivacyPage({ business, keepMessagesMonths }: PrivacyProps) {
  const email = <a href={`mailto:${business.email}`}>{business.email}</a>;
  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Privacy Notice</h1>
          <p className="section__lead">How we look after your personal data.</p>
        </div>
      </section>
      <section className="section">
        <div className="container narrow privacy">
          <p>
            {business.name} keeps only the personal data it needs to clean your laundry, under Kenya's Data Protection
            Act 2019. We never sell it and never use it for advertising.
          </p>

          <h2>What we keep, why, and for how long</h2>
          <ul className="privacy__records">
            {RECORDS.map((record) => ({
              ...record,
              kept: record.title === "Messages about your order" ? messagesKept(keepMessagesMonths) : record.kept,
            })).map((record) => (
              <li key={record.title} className="card">
                <h3>{record.title}</h3>
                <p>{record.what}</p>
                <p>
                  <strong>Why:</strong> {record.why}
                </p>
                <p>
                  <strong>Kept for:</strong> {record.kept}
                </p>
              </li>
            ))}
          </ul>
          <p>After that we delete it.</p>

          <h2>Who we share it with</h2>
          <p>Only these companies, only to deliver the service:</p>
          <ul className="checklist">
            {SHARED_WITH.map((who) => (
              <li key={who}>{who}</li>
            ))}
          </ul>

          <h2>Cookies</h2>
          <p>Our public pages set no cookies. The staff sign-in uses one cookie to keep staff signed in.</p>

          <h2>Your rights</h2>
          <p>
            You can ask to see the data we keep about you, to correct it, or to delete it (unless the law asks us to
            keep it). You can also object to how we use it. E-mail {email} with the phone number or e-mail on your
            order; we answer within 7 days.
          </p>
          <p>
            If you are not happy with our answer, you can complain to the Office of the Data Protection Commissioner
            (ODPC): <a href="https://www.odpc.go.ke">www.odpc.go.ke</a>.
          </p>
        </div>
      </section>
    </>
  );
}
