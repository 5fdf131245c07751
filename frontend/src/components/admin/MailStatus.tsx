// The dashboard's e-mail block, under the stat cards: one quiet line while the outbox sends; a box
// when e-mail is not configured or e-mails failed, with the last error and, behind a disclosure,
// the e-mails that need a look, each failed or blocked one with its 'Send again' button.
import { useState } from "react";
import { type Failure, failureOf, resendEmail } from "../../lib/admin/api";
import {
  attemptsText,
  canSendAgain,
  emailStatusLabel,
  emailStatusTone,
  mailCounts,
  mailSummaryText,
  type MailTone,
  mailTone,
  shortOrderId,
} from "../../lib/admin/display";
import type { MailReport, MailResent, OutboxMessage } from "../../lib/admin/types";
import { formatDate, formatDateTime } from "../../lib/format";
import { useFocusReturn } from "../../lib/useFocusReturn";
import { AdminAlert } from "./AdminAlert";

interface MailStatusProps {
  mail: MailReport;
  csrf: string;
  onResent: (resent: MailResent) => void;
  onSessionEnded: () => void;
}

/** The block's classes per tone: the quiet line has no box. */
const BOX: Record<MailTone, string> = {
  ok: "mail-status mail-status--ok",
  warning: "alert alert--warning mail-status",
  problem: "alert alert--error mail-status",
};

/** The block. */
export function MailStatus({ mail, csrf, onResent, onSessionEnded }: MailStatusProps) {
  const tone = mailTone(mail);
  return (
    <div className={BOX[tone]}>
      {/* A status, not an alert: it is there from the first paint, and only a change of it is news.
          The list stays outside it, so that a change in one e-mail does not read out all of them. */}
      <div role="status">
        <p>{mailSummaryText(mail)}</p>
        {!mail.configured && <p>{mailCounts(mail)}</p>}
        {tone !== "ok" && mail.lastError && (
          <p>
            Last error
            {mail.lastErrorAt && (
              <>
                {" "}
                on <time dateTime={mail.lastErrorAt}>{formatDateTime(mail.lastErrorAt)}</time>
              </>
            )}
            : {mail.lastError}
          </p>
        )}
      </div>
      {mail.problems.length > 0 && (
        <details>
          <summary>Show the e-mails</summary>
          <ul className="mail-list">
            {mail.problems.map((email) => (
              <OutboxRow key={email.id} email={email} csrf={csrf} onResent={onResent} onSessionEnded={onSessionEnded} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

interface OutboxRowProps {
  email: OutboxMessage;
  csrf: string;
  onResent: (resent: MailResent) => void;
  onSessionEnded: () => void;
}

/** One e-mail of the list: what it is, to whom, how it went, and 'Send again' when it may be. */
function OutboxRow({ email, csrf, onResent, onSessionEnded }: OutboxRowProps) {
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { ref: buttonRef, remember: rememberFocus } = useFocusReturn<HTMLButtonElement>(sending);
  const nameId = `email-${email.id}`;
  const metaId = `email-${email.id}-meta`;

  async function sendAgain() {
    if (sending) return;
    rememberFocus();
    setSending(true);
    setFailure(null);
    try {
      onResent(await resendEmail(email.id, csrf));
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    } finally {
      setSending(false);
    }
  }

  return (
    <li>
      <p className="mail-list__head">
        <strong id={nameId}>{email.label}</strong>
        <span className={`badge badge--${emailStatusTone(email.status)}`}>{emailStatusLabel(email.status)}</span>
      </p>
      <p id={metaId} className="mail-list__meta">
        To {email.to} · {attemptsText(email.attempts)} · Created{" "}
        <time dateTime={email.createdAt}>{formatDate(email.createdAt)}</time>
        {email.orderId && ` · Order ${shortOrderId(email.orderId)}`}
      </p>
      {email.lastError && <p>{email.lastError}</p>}
      {canSendAgain(email) && (
        // Disabled while sending; useFocusReturn gives a keyboard user the focus back after.
        <button
          ref={buttonRef}
          type="button"
          className="button button--outline button--small"
          aria-describedby={`${nameId} ${metaId}`}
          disabled={sending}
          onClick={sendAgain}
        >
          {sending ? "Sending…" : "Send again"}
        </button>
      )}
      {failure && <AdminAlert failure={failure} />}
    </li>
  );
}
