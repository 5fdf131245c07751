// Dashboard data shared by the unit tests of this folder; nothing in the app imports it.
import type { MailReport } from "./types";

/** A configured outbox with nothing wrong, to change one thing of in each test. */
export const QUIET_MAIL: MailReport = {
  configured: true,
  missing: [],
  waiting: 1,
  failed: 0,
  blocked: 0,
  sent: 12,
  lastError: null,
  lastErrorAt: null,
  problems: [],
};

/** An e-mail that was tried once and failed. */
export const FAILED_EMAIL = {
  id: "e1",
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
} as const;
