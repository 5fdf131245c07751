// M-PESA for staff in a real browser at 1280×800: a till payment from a masked number that no
// order could be found for waits in "M-PESA payments to check"; staff find it by its amount,
// match it to its order by order ID, and the order shows paid while today's takings count it under
// the till. The dashboard with the panel, at phone and desktop sizes, is screenshotted and scanned
// by axe-core.
import { expect, type Page, test } from "@playwright/test";
import { signIn, violations, watchConsole } from "./support";

/** MPESA_CALLBACK_SECRET of the browser tests' server (playwright.config.ts). */
const SECRET = "browser-test-payments-secret-0123456789";

/** A pay-on-delivery order placed through the API: its order ID and bill. */
async function placeOrder(page: Page): Promise<{ id: string; total: number }> {
  const response = await page.request.post("/api/orders", {
    data: {
      customerName: "Achieng Till",
      phone: "0733 987 654",
      location: "Kileleshwa, Othaya Rd",
      serviceType: "wash-fold",
      quantity: 4,
      paymentMethod: "pay-delivery",
      specialInstructions: "",
    },
  });
  expect(response.status()).toBe(201);
  const order = (await response.json()) as { id: string; totalAmount: number };
  return { id: order.id, total: order.totalAmount };
}

/** M-PESA's till confirmation of a payment made by hand, without the order ID, from a masked number. */
async function payAtTheTill(page: Page, code: string, amount: number) {
  const response = await page.request.post(`/hooks/payments/till/confirmation/${SECRET}`, {
    data: {
      TransactionType: "Buy Goods",
      TransID: code,
      TransTime: "20261125193015",
      TransAmount: `${amount}.00`,
      BusinessShortCode: "3552248",
      BillRefNumber: "",
      MSISDN: "2547 ***** 654",
      FirstName: "ACHIENG",
    },
  });
  expect(response.status()).toBe(200);
}

test("staff match an unmatched till payment to its order from the dashboard", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = watchConsole(page);
  const order = await placeOrder(page);
  const code = `QK${Date.now().toString(36).toUpperCase().slice(-8)}`.slice(0, 10);
  await payAtTheTill(page, code, order.total);
  await signIn(page);

  const panel = page.getByRole("region", { name: "M-PESA payments to check" });
  await expect(panel).toContainText(code);
  await panel.getByLabel("Search phone, M-PESA code or amount").fill(String(order.total));
  await panel.getByRole("button", { name: "Search payments" }).click();
  const row = panel.getByRole("listitem").filter({ hasText: code });
  await expect(row).toContainText("from 2547 ***** 654 (ACHIENG)");
  await page.screenshot({ path: test.info().outputPath("payments-1280x800.png"), fullPage: true });

  await row.getByLabel("Order ID it pays").fill("ZZZZ9999");
  await row.getByRole("button", { name: "Match" }).click();
  await expect(row).toContainText("No order has that order ID.");
  await row.getByLabel("Order ID it pays").fill(`#${order.id.toLowerCase()}`);
  await row.getByRole("button", { name: "Match" }).click();

  await expect(panel.getByRole("status")).toHaveText(
    `Matched to order ${order.id} and entered on its ledger: Paid KSh 600.`,
  );
  await expect(panel).not.toContainText(code);
  await page.getByLabel("Search name, location, phone or order ID").fill(order.id);
  const orderRow = page.getByRole("row").filter({ hasText: `#${order.id}` });
  await expect(orderRow.locator(".orders-table__money")).toHaveText(
    `Paid Paid KSh ${order.total.toLocaleString("en")}`,
  );
  await expect(
    page.getByRole("region", { name: /Today's takings/ }).locator(".takings__row", { hasText: "M-PESA till" }),
  ).toHaveText(`M-PESA tillKSh ${order.total.toLocaleString("en")}`);
  // The refused order ID is a 422 the browser logs; nothing else may go wrong.
  expect(problems.filter((problem) => !problem.includes("status of 422"))).toEqual([]);
});

test("the dashboard's money panels read well on a phone and a desktop", async ({ browser }) => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const order = await placeOrder(page);
  await payAtTheTill(page, `QS${Date.now().toString(36).toUpperCase().slice(-8)}`.slice(0, 10), order.total + 50);
  await signIn(page);
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(page.getByRole("region", { name: "M-PESA payments to check" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow, `no sideways scrolling at ${width}px`).toBe(false);
    await page.screenshot({ path: test.info().outputPath(`dashboard-${width}x${height}.png`), fullPage: true });
    await page.locator(".dashboard-money").screenshot({ path: test.info().outputPath(`money-${width}x${height}.png`) });
  }
  expect(await violations(page)).toEqual([]);
  await context.close();
});
