// The dashboard's outbox block, under the stat cards: one quiet line per channel (e-mail, SMS)
// while the outbox sends; a box when a channel is not configured or messages failed, with each
// channel's last problem and, behind a disclosure, the messages that need a look (a text the
// network did not deliver among them), each with its 'Send again' button when it may be.
import { useState } from "react";
import { type Failure, failureOf, resendMessage } from "../../lib/admin/api";
import {
  attemptsText,
  canSendAgain,
  channelCounts,
  channelSummaryText,
  channelTone,
  deliveryBadge,
  type OutboxTone,
  outboxStatusLabel,
  outboxStatusTone,
  outboxTone,
  recipientText,
  shortOrderId,
} from "../../lib/admin/display";
import type { ChannelReport, MessageResent, OutboxMessage, OutboxReport } from "../../lib/admin/types";
import { formatDate, formatDateTime } from "../../lib/format";
import { useFocusReturn } from "../../lib/useFocusReturn";
import { AdminAlert } from "./AdminAlert";

interface OutboxBlockProps {
  outbox: OutboxReport;
  csrf: string;
  onResent: (resent: MessageResent) => void;
  onSessionEnded: () => void;
}

/** The block's classes per tone: the quiet line has no box. */
const BOX: Record<OutboxTone, string> = {
  ok: "mail-status mail-status--ok",
  warning: "alert alert--warning mail-status",
  problem: "alert alert--error mail-status",
};

/** The block. */
export function OutboxBlock({ outbox, csrf, onResent, onSessionEnded }: OutboxBlockProps) {
  const tone = outboxTone(outbox);
  return (
    <div className={BOX[tone]}>
      {/* A status, not an alert: it is there from the first paint, and only a change of it is news.
          The list stays outside it, so that a change in one message does not read out all of them. */}
      <div role="status">
        {outbox.textBudget && <p className="outbox-budget">{outbox.textBudget.message}</p>}
        <ChannelLines report={outbox.email} problems={outbox.problems} />
        <ChannelLines report={outbox.sms} problems={outbox.problems} />
      </div>
      {outbox.problems.length > 0 && (
        <details>
          <summary>Show the messages that need a look</summary>
          <ul className="mail-list">
            {outbox.problems.map((message) => (
              <OutboxRow
                key={message.id}
                message={message}
                csrf={csrf}
                onResent={onResent}
                onSessionEnded={onSessionEnded}
              />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** One channel's lines: its summary, its counts when it is not configured, and its last problem. */
function ChannelLines({ report, problems }: { report: ChannelReport; problems: readonly OutboxMessage[] }) {
  const tone = channelTone(report, problems);
  return (
    <>
      <p>{channelSummaryText(report, problems)}</p>
      {!report.configured && <p>{channelCounts(report)}</p>}
      {tone !== "ok" && report.lastError && (
        <p>
          Last problem
          {report.lastErrorAt && (
            <>
              {" "}
              on <time dateTime={report.lastErrorAt}>{formatDateTime(report.lastErrorAt)}</time>
            </>
          )}
          : {report.lastError}
        </p>
      )}
    </>
  );
}

interface OutboxRowProps {
  message: OutboxMessage;
  csrf: string;
  onResent: (resent: MessageResent) => void;
  onSessionEnded: () => void;
}

/** One message of the list: what it is, to whom, how it went, and 'Send again' when it may be. */
function OutboxRow({ message, csrf, onResent, onSessionEnded }: OutboxRowProps) {
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { ref: buttonRef, remember: rememberFocus } = useFocusReturn<HTMLButtonElement>(sending);
  const nameId = `outbox-${message.id}`;
  const metaId = `outbox-${message.id}-meta`;
  const delivery = message.delivery && deliveryBadge(message.delivery);

  async function sendAgain() {
    if (sending) return;
    rememberFocus();
    setSending(true);
    setFailure(null);
    try {
      onResent(await resendMessage(message.id, csrf));
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
        <strong id={nameId}>{message.label}</strong>
        <span className={`badge badge--${outboxStatusTone(message.status)}`}>{outboxStatusLabel(message.status)}</span>
        {delivery && <span className={`badge badge--${delivery.tone}`}>{delivery.label}</span>}
      </p>
      <p id={metaId} className="mail-list__meta">
        {recipientText(message)} · {attemptsText(message.attempts)} · Created{" "}
        <time dateTime={message.createdAt}>{formatDate(message.createdAt)}</time>
        {message.orderId && ` · Order ${shortOrderId(message.orderId)}`}
      </p>
      {message.delivery === "failed" && message.deliveryDetail && <p>Network report: {message.deliveryDetail}</p>}
      {message.status !== "sent" && message.lastError && <p>{message.lastError}</p>}
      {canSendAgain(message) && (
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
