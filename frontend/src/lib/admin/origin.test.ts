import { test } from "node:test";
import assert from "node:assert/strict";
import { monthNames, originText, sourceTag } from "./origin";

test("the detail says how an order came in, and who took it", () => {
  assert.equal(originText("web", null), "Placed online");
  assert.equal(originText("sms", null), "Booked by text");
  assert.equal(originText("phone", "wanjiku@example.com"), "Taken by wanjiku@example.com by phone");
  assert.equal(originText("whatsapp", "wanjiku@example.com"), "Taken by wanjiku@example.com on WhatsApp");
  assert.equal(originText("phone", null), "Taken by phone");
});

test("the list tags only orders that did not come from the site", () => {
  assert.equal(sourceTag("web"), null);
  assert.deepEqual(
    ["phone", "whatsapp", "sms"].map((source) => sourceTag(source as "phone")),
    ["Phone", "WhatsApp", "Text"],
  );
});

test("months read short, with the year for screen readers", () => {
  assert.deepEqual(monthNames("2026-11"), { short: "Nov", long: "November 2026" });
  assert.deepEqual(monthNames("2027-01"), { short: "Jan", long: "January 2027" });
  assert.deepEqual(monthNames("nonsense"), { short: "nonsense", long: "nonsense" });
});
