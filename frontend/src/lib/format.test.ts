import { test } from "node:test";
import assert from "node:assert/strict";
import { formatKsh, itemAnchor, telHref, whatsappHref } from "./format";

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
