// One contact message on the dashboard (spec section 2): subject, message, who sent it and when,
// whether it is handled, and the button that changes that.
import { useState } from "react";
import { type Failure, failureOf, setMessageStatus } from "../../lib/admin/api";
import type { AdminMessage, MessageChanged } from "../../lib/admin/types";
import { formatDate, telHref } from "../../lib/format";
import { AdminAlert } from "./AdminAlert";

interface MessageCardProps {
  message: AdminMessage;
  csrf: string;
  onChanged: (changed: MessageChanged) => void;
  onSessionEnded: () => void;
}

/** The card. The message is shown as text with its line breaks, never as HTML. */
export function MessageCard({ message, csrf, onChanged, onSessionEnded }: MessageCardProps) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const handled = message.status === "handled";
  const headingId = `message-${message.id}`;

  async function toggle() {
    if (saving) return;
    setSaving(true);
    setFailure(null);
    try {
      onChanged(await setMessageStatus(message.id, handled ? "new" : "handled", csrf));
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    } finally {
      setSaving(false);
    }
  }

  return (
    <article className="card message-card" aria-labelledby={headingId}>
      <div className="message-card__head">
        <h3 id={headingId}>{message.subject}</h3>
        <span className={handled ? "badge badge--success" : "badge badge--warning"}>{handled ? "Handled" : "New"}</span>
      </div>
      <p className="message-card__text">{message.message}</p>
      <ul className="message-card__meta">
        <li className="message-card__name">{message.name}</li>
        {message.email && (
          <li>
            <a href={`mailto:${message.email}`}>{message.email}</a>
          </li>
        )}
        {message.phone && (
          <li>
            <a href={telHref(message.phone)}>{message.phone}</a>
          </li>
        )}
        <li>
          <time dateTime={message.createdAt}>{formatDate(message.createdAt)}</time>
        </li>
      </ul>
      {handled && message.handledAt && (
        <p className="message-card__handled">
          Handled{message.handledBy ? ` by ${message.handledBy}` : ""} on {formatDate(message.handledAt)}
        </p>
      )}
      {failure && <AdminAlert failure={failure} />}
      {/* Not disabled while saving: that would drop the keyboard focus; a second press is ignored. */}
      <button
        type="button"
        className="button button--outline button--small"
        aria-describedby={headingId}
        onClick={toggle}
      >
        {saving ? "Saving…" : handled ? "Mark as new" : "Mark handled"}
      </button>
    </article>
  );
}
