// /tracking, 'Track Your Order' (spec section 2). The form is a plain GET, so it works without
// JavaScript; the server answers the lookup.
import { useState } from "react";
import { Icon } from "../components/Icon";
import { whatsappHref } from "../lib/format";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** What the visitor searched for, echoed back by the server. */
export interface TrackingQuery {
  by: "phone" | "order";
  value: string;
}

/** Props of the tracking page. */
export interface TrackingProps extends SharedProps {
  query: TrackingQuery | null;
}

/** Title and description for the document shell. */
export function meta(props: TrackingProps): PageMeta {
  return {
    title: `Track Your Order | ${props.business.name}`,
    description: "Track your laundry order by phone number or order ID: pickup, cleaning, and delivery status.",
  };
}

/** The tracking page. */
export default function TrackingPage(props: TrackingProps) {
  const [by, setBy] = useState<TrackingQuery["by"]>(props.query?.by ?? "phone");
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
          <form className="card form" method="get" action="/tracking">
            <fieldset>
              <legend>Search By</legend>
              <div className="segmented">
                <label className={by === "phone" ? "segmented__option is-selected" : "segmented__option"}>
                  <input type="radio" name="by" value="phone" checked={by === "phone"} onChange={() => setBy("phone")} />
                  Phone Number
                </label>
                <label className={by === "order" ? "segmented__option is-selected" : "segmented__option"}>
                  <input type="radio" name="by" value="order" checked={by === "order"} onChange={() => setBy("order")} />
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
            <button type="submit" className="button button--primary button--block">Track Order</button>
          </form>
          {props.query && (
            <div className="card notice" role="status">
              <p>
                Online lookup is not available yet. Please call or WhatsApp us with your order details and we
                will tell you its status right away.
              </p>
            </div>
          )}
          <div className="card help-card">
            <h2>Need Help?</h2>
            <p>Our team is available 24/7 to answer questions about your order.</p>
            <div className="actions">
              <a className="button button--whatsapp" href={whatsappHref(props.business.whatsapp)} target="_blank" rel="noopener noreferrer">
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
