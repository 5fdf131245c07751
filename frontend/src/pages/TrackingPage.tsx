// /tracking, 'Track Your Order' (spec section 2). The form posts, so it works without JavaScript
// and a phone number never sits in the address bar; with JavaScript the same look-up is posted as
// JSON. A look-up by order ID gets a shareable address (/tracking?by=order&q=K7MX2QPD).
import { type FormEvent, useState } from "react";
import { Icon } from "../components/Icon";
import { TrackedOrderCard } from "../components/TrackedOrderCard";
import { helpMessage, whatsappHref } from "../lib/format";
import type { ErrorBody } from "../lib/generated/ErrorBody";
import type { TrackBy } from "../lib/generated/TrackBy";
import type { TrackingResult } from "../lib/generated/TrackingResult";
import type { TrackingOutcome } from "../lib/generated/TrackingOutcome";
import type { TrackingProps as OwnProps } from "../lib/generated/TrackingProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the tracking page: the search echoed back, and what it found or why nothing. */
export type TrackingProps = SharedProps & OwnProps;

const LOOKUP_FAILED = "The order look-up failed. Please check your connection and try again.";

/** Title and description for the document shell. */
export function meta(props: TrackingProps): PageMeta {
  return {
    title: `Track Your Order | ${props.business.name}`,
    description: "Track your laundry order by phone number or order ID: pickup, cleaning, and delivery status.",
    status: props.result && "status" in props.result ? props.result.status : undefined,
  };
}

/** The tracking page. */
export default function TrackingPage(props: TrackingProps) {
  const [by, setBy] = useState<TrackBy>(props.query?.by ?? "phone");
  const [result, setResult] = useState<TrackingOutcome | null>(props.result);
  const [searching, setSearching] = useState(false);

  async function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("q");
    const q = typeof value === "string" ? value.trim() : "";
    setSearching(true);
    try {
      const response = await fetch("/api/tracking", {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ by, q }),
      });
      const body = (await response.json()) as TrackingResult | ErrorBody;
      setResult("orders" in body ? body : { error: body.error ?? LOOKUP_FAILED, status: response.status });
      // An order ID may be shared; a phone number stays out of the address bar and the history.
      const address = by === "order" ? `/tracking?${new URLSearchParams({ by, q })}` : "/tracking";
      window.history.replaceState(null, "", address);
    } catch {
      setResult({ error: LOOKUP_FAILED, status: 0 });
    } finally {
      setSearching(false);
    }
  }
  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Track Your Order</h1>
          <p className="section__lead">Enter your phone number or order ID to see where your laundry is.</p>
        </div>
      </section>
      <section className="section">
        <div className="container narrow">
          <form className="card form" method="post" action="/tracking" onSubmit={search}>
            <fieldset>
              <legend>Search By</legend>
              <div className="segmented">
                <label className={by === "phone" ? "segmented__option is-selected" : "segmented__option"}>
                  <input
                    type="radio"
                    name="by"
                    value="phone"
                    checked={by === "phone"}
                    onChange={() => setBy("phone")}
                  />
                  Phone Number
                </label>
                <label className={by === "order" ? "segmented__option is-selected" : "segmented__option"}>
                  <input
                    type="radio"
                    name="by"
                    value="order"
                    checked={by === "order"}
                    onChange={() => setBy("order")}
                  />
                  Order ID
                </label>
              </div>
            </fieldset>
            <div className="field">
              <label htmlFor="tracking-value">{by === "phone" ? "Phone Number" : "Order ID"}</label>
              <input
                id="tracking-value"
                name="q"
                type={by === "phone" ? "tel" : "text"}
                inputMode={by === "phone" ? "tel" : "text"}
                required
                maxLength={40}
                defaultValue={props.query?.value ?? ""}
                placeholder={by === "phone" ? "07XX XXX XXX" : "e.g. LX7K2P9Q"}
              />
            </div>
            <button type="submit" className="button button--primary button--block" disabled={searching}>
              {searching ? "Looking up…" : "Track Order"}
            </button>
          </form>
          <div aria-live="polite">
            {result &&
              "orders" in result &&
              result.orders.map((order) => <TrackedOrderCard key={order.id} order={order} business={props.business} />)}
            {result && "error" in result && (
              <div className="card notice" role="alert">
                <p>{result.error}</p>
              </div>
            )}
          </div>
          <div className="card help-card">
            <h2>Need Help?</h2>
            <p>Our team is available 24/7 to answer questions about your order.</p>
            <div className="actions">
              <a
                className="button button--whatsapp"
                href={whatsappHref(props.business.whatsapp, helpMessage(props.business.name))}
                target="_blank"
                rel="noopener noreferrer"
              >
                <Icon name="chat" /> WhatsApp
              </a>
              <a className="button button--outline" href={`mailto:${props.business.email}`}>
                <Icon name="mail" /> Email Us
              </a>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
