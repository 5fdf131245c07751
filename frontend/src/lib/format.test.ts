import { test } from "node:test";
import assert from "node:assert/strict";
import { bookingMessage, formatKsh, itemAnchor, orderMessage, telHref, whatsappHref } from "./format";

test("amounts read as KSh with thousands separators", () => {
  assert.equal(formatKsh(500), "KSh 500");
  assert.equal(formatKsh(1500), "KSh 1,500");
  assert.equal(formatKsh(1234567), "KSh 1,234,567");
});

test("item anchors are lower-case slugs", () => {
  assert.equal(itemAnchor("Bed Cover (King)"), "item-bed-cover-king");
  assert.equal(itemAnchor("General Laundry (1-5kg)"), "item-general-laundry-1-5kg");
});

test("phone links keep digits and the plus sign", () => {
  assert.equal(telHref("+254 700 000 000"), "tel:+254700000000");
  assert.equal(whatsappHref("+254 700-000-000"), "https://wa.me/254700000000");
});

test("a chat link without a message has no text parameter", () => {
  assert.equal(whatsappHref("+254 700 000 000", ""), "https://wa.me/254700000000");
  assert.equal(whatsappHref("+254 700 000 000", undefined), "https://wa.me/254700000000");
});

test("a chat link's message is encoded as one URI component", () => {
  assert.equal(
    whatsappHref("+254 700 000 000", "Hello Usafi & Co, order #AB12 ü"),
    "https://wa.me/254700000000?text=Hello%20Usafi%20%26%20Co%2C%20order%20%23AB12%20%C3%BC",
  );
  const href = whatsappHref("+254700000000", "a+b=c?d/e\nf");
  assert.equal(new URL(href).searchParams.get("text"), "a+b=c?d/e\nf", "read back as written");
});

test("the chat messages name the shop, and the order when there is one", () => {
  assert.equal(
    bookingMessage("Usafi Express Laundry"),
    "Hello Usafi Express Laundry, I would like to book a laundry pickup.\nMy name: \nLocation: \nPickup day and time: ",
  );
  assert.equal(
    orderMessage("Usafi Express Laundry", "AB12CD34"),
    "Hello Usafi Express Laundry, about my order AB12CD34: ",
  );
  assert.equal(
    whatsappHref("+254700000000", orderMessage("Usafi", "AB12CD34")),
    "https://wa.me/254700000000?text=Hello%20Usafi%2C%20about%20my%20order%20AB12CD34%3A%20",
  );
});

test("dates read in Nairobi time whatever the machine's zone", async () => {
  const { formatDate } = await import("./format");
  assert.equal(formatDate("2026-11-24T20:30:00.000Z"), "Tue, 24 Nov 2026");
  assert.equal(formatDate("2026-11-24T21:30:00.000Z"), "Wed, 25 Nov 2026");
  assert.equal(formatDate("not a date"), "");
});

test("a time reads as a Nairobi date and 24-hour time", async () => {
  const { formatDateTime } = await import("./format");
  assert.equal(formatDateTime("2026-11-24T20:30:00Z"), "Tue, 24 Nov 2026 at 23:30");
  assert.equal(formatDateTime("2026-11-24T21:05:00Z"), "Wed, 25 Nov 2026 at 00:05");
  assert.equal(formatDateTime("not a date"), "");
});

test("a time of a day's list reads as its Nairobi clock alone", async () => {
  const { formatClock } = await import("./format");
  assert.equal(formatClock("2026-11-24T16:40:00Z"), "19:40");
  assert.equal(formatClock("2026-11-24T21:05:00Z"), "00:05");
  assert.equal(formatClock("not a date"), "");
});
