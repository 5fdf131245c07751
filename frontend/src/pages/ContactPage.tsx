// /contact, 'Get in Touch' (spec section 2). A real form: it posts to the server with or without
// JavaScript (storing the message is the server's job).
import { type FormEvent, useState } from "react";
import { describedBy, Field } from "../components/Field";
import { Icon } from "../components/Icon";
import { telHref } from "../lib/format";
import { useMessageInView } from "../lib/useMessageInView";
import { formValues, postJson } from "../lib/submit";
import type { ContactPageProps } from "../lib/generated/ContactPageProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Spec section 8. */
const SENT = "Thank you for your message! We will get back to you soon.";
const SEND_FAILED = "There was an error sending your message. Please try again.";

/** Props of the contact page: the form sent back after a plain post with mistakes, or `sent`. */
export type ContactProps = SharedProps & ContactPageProps;

/** Title and description for the document shell. */
export function meta(props: ContactProps): PageMeta {
  return {
    title: `Contact Us | ${props.business.name}`,
    description: `Questions about laundry, dry cleaning or a pickup in Nairobi? Call ${props.business.phone} or send us a message; we reply within 24 hours.`,
    status: props.form?.status,
  };
}

/** The contact page. */
export default function ContactPage(props: ContactProps) {
  const { business } = props;
  const initial = props.form?.values ?? {};
  const value = (name: string) => initial[name] ?? "";
  const [errors, setErrors] = useState<Record<string, string>>(props.form?.errors ?? {});
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(
    props.sent ? { kind: "success", text: SENT } : props.form?.alert ? { kind: "error", text: props.form.alert } : null,
  );
  const [sending, setSending] = useState(false);
  const noticeElement = useMessageInView<HTMLDivElement>(notice);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    setSending(true);
    setNotice(null);
    const result = await postJson("/api/contacts", formValues(form));
    setSending(false);
    if (result.kind === "ok") {
      setErrors({});
      form.reset();
      setNotice({ kind: "success", text: SENT });
    } else if (result.kind === "invalid") {
      setErrors(result.fields);
      form.querySelector<HTMLElement>(`[name="${Object.keys(result.fields)[0]}"]`)?.focus();
    } else {
      setNotice({ kind: "error", text: result.message ?? SEND_FAILED });
    }
  }

  const aria = (id: string, name: string) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": describedBy(id, false, errors[name]),
  });
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
          <form className="card form" method="post" action="/contact" onSubmit={submit}>
            <h2>Send us a message</h2>
            {notice && (
              <div
                ref={noticeElement}
                className={`alert alert--${notice.kind}`}
                role={notice.kind === "error" ? "alert" : "status"}
                tabIndex={-1}
              >
                {notice.text}
              </div>
            )}
            <Field id="contact-name" label="Full Name" error={errors.name}>
              <input
                id="contact-name"
                name="name"
                type="text"
                autoComplete="name"
                required
                maxLength={100}
                defaultValue={value("name")}
                {...aria("contact-name", "name")}
              />
            </Field>
            <Field id="contact-email" label="Email Address" error={errors.email}>
              <input
                id="contact-email"
                name="email"
                type="email"
                autoComplete="email"
                required
                maxLength={254}
                defaultValue={value("email")}
                {...aria("contact-email", "email")}
              />
            </Field>
            <Field id="contact-phone" label="Phone Number" optional error={errors.phone}>
              <input
                id="contact-phone"
                name="phone"
                type="tel"
                autoComplete="tel"
                inputMode="tel"
                maxLength={20}
                defaultValue={value("phone")}
                {...aria("contact-phone", "phone")}
              />
            </Field>
            <Field id="contact-subject" label="Subject" error={errors.subject}>
              <input
                id="contact-subject"
                name="subject"
                type="text"
                required
                maxLength={150}
                defaultValue={value("subject")}
                {...aria("contact-subject", "subject")}
              />
            </Field>
            <Field id="contact-message" label="Message" error={errors.message}>
              <textarea
                id="contact-message"
                name="message"
                rows={5}
                required
                maxLength={2000}
                defaultValue={value("message")}
                {...aria("contact-message", "message")}
              />
            </Field>
            <button type="submit" className="button button--primary button--block" disabled={sending}>
              {sending ? "Sending…" : "Send Message"}
            </button>
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
