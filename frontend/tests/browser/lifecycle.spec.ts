// The real day's exceptions in the browser (issue 29), against a server that texts through a mock
// Africa's Talking: on a phone (390×844) the valet marks a pickup "Not home", the text reaches the
// customer, whose page offers new windows, and the order never shows as a delivery meanwhile; on a
// desktop (1280×800) staff cancel a paid order after a confirmation with a reason, then take the
// cancellation back.
import { expect, type Page, test } from "@playwright/test";
import { type FakedServer, signIn as signInAs, startServerWithFakes, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true });

const STAFF = { email: "day-staff@example.com", password: "Browser-Test-Pass-2026" };
const PHONE = "+254733445566";
let server: FakedServer;

test.beforeAll(async () => {
  server = await startServerWithFakes("lifecycle", STAFF);
});

test.afterAll(async () => {
  server?.stop();
});

/** Places 3 kg of wash & fold paid on delivery through the API, as the form does; its order ID. */
async function placeOrder(page: Page): Promise<string> {
  const response = await page.request.post(`${server.base}/api/orders`, {
    data: {
      customerName: "Achieng Exceptions",
      phone: PHONE,
      location: "Kilimani, Argwings Kodhek Rd",
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Signs staff in on `page`, at this file's server; the session's CSRF token. */
function signIn(page: Page): Promise<string> {
  return signInAs(page, { account: STAFF, from: `${server.base}/admin` });
}

/** `YYYY-MM-DD` `days` after `day`. */
function daysAfter(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

test("a valet marks a pickup not home; the customer chooses a new window from the text", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const valet = await context.newPage();
  const problems = watchConsole(valet);
  const orderId = await placeOrder(valet);
  const csrf = await signIn(valet);
  const awaiting = await valet.request.get(`${server.base}/api/admin/unconfirmed`, {
    headers: { "X-CSRF-Token": csrf },
  });
  const items = ((await awaiting.json()) as { items: { orderId: string; pickup: string }[] }).items;
  const pickupDay = items.find((item) => item.orderId === orderId)?.pickup.slice(0, 10) ?? "";

  // Staff standing in for the valet: the day's stops, this order's pickup among them.
  await valet.goto(`${server.base}/valet?date=${pickupDay}`);
  const card = valet.locator("li.stop", { hasText: `#${orderId}` });
  await expect(card).toHaveCount(1);
  await card.getByText("Not home / not ready").click();
  await card.getByLabel("Not home").check();
  await card.screenshot({ path: test.info().outputPath("valet-not-home-390x844.png") });
  await card.getByRole("button", { name: "Mark missed" }).click();
  await expect(valet.getByText(`Marked missed: order ${orderId}.`)).toBeVisible();
  await expect(valet.locator("li.stop", { hasText: `#${orderId}` })).toContainText("Missed: Not home");

  // Its delivery is in no run: not on its day's valet page.
  await valet.goto(`${server.base}/valet?date=${daysAfter(pickupDay, 3)}`);
  await expect(valet.getByText(`#${orderId}`)).toHaveCount(0);

  // The text reaches the customer with the link to their page, which offers the windows.
  const text = await server.textWith(`could not collect order ${orderId} today`);
  expect(text.to).toBe(PHONE);
  const link = /Choose a new pickup time: (\S+)$/.exec(text.message)?.[1] ?? "";
  expect(link).toMatch(/\/t\/[a-z0-9]+$/);
  const customer = await context.newPage();
  await customer.goto(link);
  const form = customer.locator("form", { has: customer.getByRole("heading", { name: "Choose a New Pickup Time" }) });
  await expect(form).toContainText("Our valet could not collect your laundry on");
  await expect(form).toContainText("(Not home)");
  await expect(customer.getByText("· Cancelled")).toHaveCount(0);
  await customer.screenshot({ path: test.info().outputPath("customer-missed-390x844.png"), fullPage: true });
  expect(await violations(customer)).toEqual([]);
  const select = form.getByLabel("New pickup window");
  const chosen = (await select.locator("option:not([disabled])").nth(1).innerText()).split(" (")[0] ?? "";
  await select.selectOption({ index: 2 });
  await form.getByRole("button", { name: "Move My Pickup" }).click();
  await expect(customer.getByText("Your pickup has been moved.")).toBeVisible();
  await expect(customer.locator(".tracked-order")).toContainText(chosen.split(", ").slice(1).join(", "));
  await expect(customer.getByRole("heading", { name: "Choose a New Pickup Time" })).toHaveCount(0);
  expect(problems).toEqual([]);
  await context.close();
});

test("staff cancel a paid order after a confirmation with a reason, and take it back", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = watchConsole(page);
  const orderId = await placeOrder(page);
  const csrf = await signIn(page);
  const paid = await page.request.post(`${server.base}/api/admin/orders/${orderId}/payment`, {
    data: { method: "cash" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(paid.status()).toBe(200);
  await page.reload();
  const row = page.locator("tr.orders-table__row", { hasText: orderId });
  const status = page.getByLabel(`Status of order ${orderId}`);

  // Choosing Cancelled asks first: nothing is saved until the reason is given and confirmed.
  await status.selectOption("cancelled");
  const panel = page.locator("form.status-panel");
  await expect(panel.getByText(`Cancel order ${orderId}?`)).toBeVisible();
  await expect(panel).toContainText("KSh 450 was paid: it will be owed back to the customer.");
  await panel.getByRole("button", { name: "Cancel order" }).click();
  await expect(panel).toContainText("Say why the order is cancelled");
  await expect(row).toContainText("Pending");
  await panel.getByLabel("Reason").fill("Customer is travelling");
  await page.screenshot({ path: test.info().outputPath("cancel-confirm-1280x800.png") });
  await panel.getByRole("button", { name: "Cancel order" }).click();
  await expect(panel).toHaveCount(0);
  await expect(row.locator(".badge", { hasText: "Cancelled" })).toBeVisible();
  await expect(row.locator(".orders-table__money")).toHaveText(
    "In credit Paid KSh 450 · KSh 450 owed back to the customer",
  );
  expect((await server.textWith(`order ${orderId} has been cancelled.`)).message).toContain(
    "We will send back your KSh 450.",
  );

  // "Keep it" changes nothing; taking it back asks, then restores the order.
  await status.selectOption("pending");
  await expect(panel.getByText(`Take back the cancellation of order ${orderId}?`)).toBeVisible();
  await panel.getByRole("button", { name: "Keep it" }).click();
  await expect(row.locator(".badge", { hasText: "Cancelled" })).toBeVisible();
  await status.selectOption("pending");
  await panel.getByRole("button", { name: "Take back the cancellation" }).click();
  await expect(row.locator(".badge", { hasText: "Pending" })).toBeVisible();
  await expect(row.locator(".orders-table__money")).toHaveText("Paid Paid KSh 450");
  await server.textWith(`order ${orderId} is back on.`);
  expect(problems).toEqual([]);
});
