// /contact, 'Get in Touch' (spec section 2). A real form: it posts to the server with or without
// JavaScript (storing the message is the server's job).
import { Field } from "../components/Field";
import { Icon } from "../components/Icon";
import { telHref } from "../lib/format";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Title and description for the document shell. */
export function meta(props: SharedProps): PageMeta {
  return {
    title: `Contact Us | ${props.business.name}`,
    description: `Questions about laundry, dry cleaning or a pickup in Nairobi? Call ${props.business.phone} or send us a message; we reply within 24 hours.`,
  };
}

/** The contact page. */
export default function ContactPage(props: SharedProps) {
  const { business } = props;
  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <h1>Get in Touch</h1>
          <p className="section__lead">Questions, special requests or feedback: we would love to hear from you.</p>
        </div>
      </section>
      <section className="section">
        <div className="container two-columns">
          <form className="card form" method="post" action="/contact">
            <h2>Send us a message</h2>
            <Field id="contact-name" label="Full Name">
              <input id="contact-name" name="name" type="text" autoComplete="name" required maxLength={100} />
            </Field>
            <Field id="contact-email" label="Email Address">
              <input id="contact-email" name="email" type="email" autoComplete="email" required maxLength={254} />
            </Field>
            <Field id="contact-phone" label="Phone Number" optional>
              <input id="contact-phone" name="phone" type="tel" autoComplete="tel" inputMode="tel" maxLength={20} />
            </Field>
            <Field id="contact-subject" label="Subject">
              <input id="contact-subject" name="subject" type="text" required maxLength={150} />
            </Field>
            <Field id="contact-message" label="Message">
              <textarea id="contact-message" name="message" rows={5} required maxLength={2000} />
            </Field>
            <button type="submit" className="button button--primary button--block">Send Message</button>
          </form>
          <aside className="card contact-card" aria-labelledby="contact-details-title">
            <h2 id="contact-details-title">Contact Information</h2>
            <ul className="contact-list">
              <li>
                <Icon name="phone" />
                <div>
                  <h3>Phone</h3>
                  <a href={telHref(business.phone)}>{business.phone}</a>
                </div>
              </li>
              <li>
                <Icon name="mail" />
                <div>
                  <h3>Email</h3>
                  <a href={`mailto:${business.email}`}>{business.email}</a>
                  <p className="muted">We respond within 24 hours</p>
                </div>
              </li>
              <li>
                <Icon name="pin" />
                <div>
                  <h3>Service Area</h3>
                  <p>Nairobi & Surrounding Areas</p>
                  <p className="muted">Free pickup and delivery</p>
                </div>
              </li>
              <li>
                <Icon name="clock" />
                <div>
                  <h3>Business Hours</h3>
                  <p>24/7 Service</p>
                </div>
              </li>
            </ul>
          </aside>
        </div>
      </section>
    </>
  );
}
