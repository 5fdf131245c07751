import { test } from "node:test";
import assert from "node:assert/strict";
import { adminHref, listApiPath, moneyHref, tabHref } from "./urls";

test("dashboard addresses keep the tab, the filter and pages after the first", () => {
  assert.equal(adminHref("messages", { status: null, page: 1 }), "/admin?tab=messages");
  assert.equal(
    adminHref("orders", { status: "ready", q: " Wanjiru K ", page: 2 }),
    "/admin?tab=orders&status=ready&q=Wanjiru%20K&page=2",
  );
  assert.equal(listApiPath("orders", { status: null, q: "", page: 1 }), "/api/admin/orders");
  assert.equal(listApiPath("messages", { status: "new", page: 3 }), "/api/admin/messages?status=new&page=3");
});

test("the money tab's address names the day of its cash-up, or none for today", () => {
  assert.equal(moneyHref(null), "/admin?tab=money");
  assert.equal(moneyHref("2026-11-25"), "/admin?tab=money&date=2026-11-25");
});

test("a tab's own address opens the day board and the money on today, and a list on its first page", () => {
  assert.equal(tabHref("run"), "/admin?tab=run");
  assert.equal(tabHref("money"), "/admin?tab=money");
  assert.equal(tabHref("inbox"), "/admin?tab=inbox");
  assert.equal(tabHref("reports"), "/admin?tab=reports");
});
