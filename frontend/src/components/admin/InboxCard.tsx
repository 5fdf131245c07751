// One text to the shop's number on the dashboard: who sent it and when, what it says, what it led
// to (the automatic reply or why there was none), the customer's order, staff's answers, the
// buttons that mark it read or handled, and the form that answers it by text.
import { type FormEvent, useId, useState } from "react";
import { AdminError, adminPost, type Failure, failureOf } from "../../lib/admin/api";
import { isGsm, segments, smsLength } from "../../lib/admin/sms";
import { formatDateTime, telHref } from "../../lib/format";
import type { AnswerLimit } from "../../lib/generated/AnswerLimit";
import type { InboxChanged } from "../../lib/generated/InboxChanged";
import type { InboxStatus } from "../../lib/generated/InboxStatus";
import type { InboxText } from "../../lib/generated/InboxText";
import { AdminAlert } from "./AdminAlert";

interface InboxCardProps {
  text: InboxText;
  limit: AnswerLimit;
  csrf: string;
  onChanged: (changed: InboxChanged, what: string) => void;
  onOpenOrder: (reference: string) => void;
  onSessionEnded: () => void;
}

const STATUS_LABELS: Record<InboxStatus, string> = { new: "New", read: "Read", handled: "Handled" };
const STATUS_BADGES: Record<InboxStatus, string> = {
  new: "badge badge--warning",
  read: "badge badge--info",
  handled: "badge badge--success",
};
const SENDING_LABELS: Record<InboxText["answers"][number]["sending"], string> = {
  pending: "waiting to be sent",
  sent: "sent",
  failed: "not sent",
  blocked: "waiting: the SMS account needs a look",
  skipped: "not sent: the number opted out",
};

/** The card. What the customer typed is shown as text with its line breaks, never as HTML. */
export function InboxCard({ text, limit, csrf, onChanged, onOpenOrder, onSessionEnded }: InboxCardProps) {
  const id = useId();
  const headingId = `${id}-heading`;
  const answerId = `${id}-answer`;
  const countId = `${id}-count`;
  const errorId = `${id}-error`;
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [answer, setAnswer] = useState("");
  const [answerError, setAnswerError] = useState<string | null>(null);
  const path = `/api/admin/inbox/${encodeURIComponent(text.id)}`;

  function fail(error: unknown) {
    const shown = failureOf(error);
    if (shown.sessionEnded) onSessionEnded();
    setFailure(shown);
  }

  async function mark(status: InboxStatus) {
    if (saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const changed = await adminPost<InboxChanged>(`${path}/status`, { status }, csrf);
      onChanged(changed, `Text from ${text.from} marked ${STATUS_LABELS[status].toLowerCase()}.`);
    } catch (error) {
      fail(error);
    } finally {
      setSaving(false);
    }
  }

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    if (answer.trim() === "") {
      setAnswerError("Write the answer: it cannot be empty.");
      return;
    }
    setSaving(true);
    setFailure(null);
    setAnswerError(null);
    try {
      const changed = await adminPost<InboxChanged>(`${path}/answer`, { text: answer }, csrf);
      setAnswer("");
      onChanged(changed, `Answer to ${text.from} queued.`);
    } catch (error) {
      if (error instanceof AdminError && error.fields.text) setAnswerError(error.fields.text);
      else fail(error);
    } finally {
      setSaving(false);
    }
  }

  const order = text.order;
  const trimmed = answer.trim();
  const plain = isGsm(trimmed);
  const max = plain ? limit.gsmChars : limit.unicodeChars;
  const used = smsLength(trimmed);
  const parts = segments(trimmed);
  const tooLong = parts > limit.segments;

  return (
    <article className="card message-card inbox-card" aria-labelledby={headingId}>
      <div className="message-card__head">
        <h3 id={headingId}>
          Text from <a href={telHref(text.from)}>{text.from}</a>
        </h3>
        <span className={STATUS_BADGES[text.status]}>{STATUS_LABELS[text.status]}</span>
      </div>
      <p className="message-card__text inbox-card__text">{text.text === "" ? <em>(empty text)</em> : text.text}</p>
      <ul className="message-card__meta">
        <li>
          <time dateTime={text.receivedAt}>{formatDateTime(text.receivedAt)}</time>
        </li>
        <li>{text.outcomeLabel}</li>
        <li>{text.replyLabel}</li>
      </ul>
      {order ? (
        <p className="inbox-card__order">
          {order.customerName}&apos;s order{" "}
          <button
            type="button"
            className="inbox-card__open"
            aria-haspopup="dialog"
            onClick={() => onOpenOrder(order.reference)}
          >
            #{order.reference}
          </button>{" "}
          ({order.status.replace(/-/g, " ")}, placed {formatDateTime(order.createdAt)})
        </p>
      ) : (
        <p className="inbox-card__order">No order from this number.</p>
      )}
      {text.answers.length > 0 && (
        <ol className="inbox-card__answers" aria-label="Answers sent">
          {text.answers.map((sent) => (
            <li key={`${sent.at}-${sent.by}`}>
              <p className="message-card__text">{sent.text}</p>
              <p className="message-card__handled">
                Answered by {sent.by} on <time dateTime={sent.at}>{formatDateTime(sent.at)}</time>:{" "}
                {SENDING_LABELS[sent.sending]}
              </p>
            </li>
          ))}
        </ol>
      )}
      {text.status !== "new" && text.statusBy && text.statusAt && (
        <p className="message-card__handled">
          {STATUS_LABELS[text.status]} by {text.statusBy} on {formatDateTime(text.statusAt)}
        </p>
      )}
      {failure && <AdminAlert failure={failure} />}
      <div className="inbox-card__actions">
        {text.status === "new" && (
          <button
            type="button"
            className="button button--outline button--small"
            aria-describedby={headingId}
            onClick={() => void mark("read")}
          >
            Mark read
          </button>
        )}
        <button
          type="button"
          className="button button--outline button--small"
          aria-describedby={headingId}
          onClick={() => void mark(text.status === "handled" ? "new" : "handled")}
        >
          {text.status === "handled" ? "Mark as new" : "Mark handled"}
        </button>
      </div>
      {text.optedOut ? (
        <p className="inbox-card__opted-out">
          This number opted out of texts (STOP, or its order page): it cannot be answered by text. Call it instead.
        </p>
      ) : (
        <details
          className="inbox-card__reply"
          onToggle={(event) => {
            if (event.currentTarget.open && text.status === "new") void mark("read");
          }}
        >
          <summary>Answer by text</summary>
          <form onSubmit={(event) => void send(event)} noValidate>
            <div className="field">
              <label htmlFor={answerId}>Answer to {text.from}</label>
              <textarea
                id={answerId}
                name="text"
                rows={4}
                value={answer}
                aria-invalid={answerError !== null || tooLong || undefined}
                aria-describedby={answerError ? `${countId} ${errorId}` : countId}
                onChange={(event) => setAnswer(event.currentTarget.value)}
              />
              <p id={countId} className={tooLong ? "field__hint field__hint--over" : "field__hint"}>
                {used} of {max} characters ({parts} of {limit.segments} texts)
                {plain ? "" : ": an emoji or special character makes each text shorter"}
              </p>
              {answerError && (
                <p id={errorId} className="field__error" role="alert">
                  {answerError}
                </p>
              )}
            </div>
            <button type="submit" className="button button--primary button--small">
              {saving ? "Sending…" : "Send answer"}
            </button>
          </form>
        </details>
      )}
    </article>
  );
}
