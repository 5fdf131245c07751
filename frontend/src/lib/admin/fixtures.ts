// Dashboard data shared by the unit tests of this folder; nothing in the app imports it.
import type { ChannelReport, OutboxMessage, OutboxReport } from "./types";

/** A configured e-mail channel with nothing wrong, to change one thing of in each test. */
export const QUIET_MAIL: ChannelReport = {
  channel: "email",
  configured: true,
  missing: [],
  waiting: 1,
  failed: 0,
  blocked: 0,
  sent: 12,
  skipped: 0,
  undelivered: 0,
  lastError: null,
  lastErrorAt: null,
};

/** A configured SMS channel with nothing wrong. */
export const QUIET_SMS: ChannelReport = { ...QUIET_MAIL, channel: "sms", sent: 30, waiting: 0 };

/** An outbox with nothing wrong. */
export const QUIET_OUTBOX: OutboxReport = { email: QUIET_MAIL, sms: QUIET_SMS, problems: [], textBudget: null };

/** An e-mail that was tried once and failed. */
export const FAILED_EMAIL: OutboxMessage = {
  id: "e1",
  channel: "email",
  kind: "order-customer",
  label: "Order confirmation (to the customer)",
  to: "njeri@example.com",
  orderId: "0f8c2a9e-4b1d-4c7a-9e3f-12ab34cd56ef",
  status: "failed",
  attempts: 1,
  lastError: "HTTP 400: The template ID is invalid",
  createdAt: "2026-11-24T20:30:00Z",
  lastAttemptAt: "2026-11-24T20:30:00Z",
  nextAttemptAt: "2026-11-24T20:30:00Z",
  sentAt: null,
  delivery: null,
  deliveryDetail: null,
  deliveryAt: null,
};

/** A text that was sent and that the network reported not delivered. */
export const UNDELIVERED_TEXT: OutboxMessage = {
  ...FAILED_EMAIL,
  id: "t1",
  channel: "sms",
  kind: "sms-order-received",
  label: "Order received",
  to: "+254712345678",
  status: "sent",
  lastError: null,
  sentAt: "2026-11-24T20:30:01Z",
  delivery: "failed",
  deliveryDetail: "Failed (network 63902): DeliveryFailure",
  deliveryAt: "2026-11-24T20:31:00Z",
};
