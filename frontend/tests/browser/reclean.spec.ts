// The free re-clean on a phone (390×844), against a server of this file's own that texts through a
// mock Africa's Talking the test runs (the shared server has no SMS settings, and the dashboard's
// tests rely on that): an order is delivered by staff, the customer opens the receipt link of the
// delivered text, goes to the re-clean form, chooses a line, says what is wrong, picks a window and
// lands on the re-clean's page (KSh 0, nothing to pay); the line is then shown taken. The same form
// without JavaScript posts and redirects, and answers a mistake next to its field.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type FakedServer, signIn, startServerWithFakes, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

const STAFF = { email: "reclean-staff@example.com", password: "Browser-Test-Pass-2026" };
const PHONE = "+254733221100";

let server: FakedServer;
let base = "";

test.beforeAll(async () => {
  server = await startServerWithFakes("reclean", STAFF);
  base = server.base;
});

test.afterAll(async () => {
  server?.stop();
});

/** Places 3 kg of wash & fold and 2 shirts through the API, as the form does; its order ID. */
async function placeOrder(page: Page): Promise<string> {
  const response = await page.request.post(`${base}/api/orders`, {
    data: {
      customerName: "Wanjiku Re-clean",
      phone: PHONE,
      location: "Lavington, James Gichuru Rd",
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
      pieces: { shirt: 2 },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Staff sign in (a browser context of their own) and set the order delivered. */
async function deliver(browser: Browser, orderId: string) {
  const context = await browser.newContext();
  const staff = await context.newPage();
  const csrf = await signIn(staff, { account: STAFF, from: `${base}/admin/login`, hydrate: false });
  const changed = await staff.request.post(`${base}/api/admin/orders/${orderId}/status`, {
    data: { status: "delivered" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(changed.status()).toBe(200);
  await context.close();
}

/** The text the mock received that contains `words`, sent to the customer. */
async function textWith(words: string): Promise<string> {
  const text = await server.textWith(words);
  expect(text.to).toBe(PHONE);
  return text.message;
}

test("a customer asks for a free re-clean from the link in their delivered text", async ({ page, browser }) => {
  const problems = watchConsole(page);
  const orderId = await placeOrder(page);
  await deliver(browser, orderId);
  const delivered = await textWith(`order ${orderId} delivered`);
  const receipt = /Receipt: (\S+)$/.exec(delivered)?.[1] ?? "";
  expect(receipt).toMatch(/\/t\/[a-z0-9]+\/receipt$/);

  await page.goto(receipt);
  await page
    .getByRole("link", { name: /^Not satisfied\? Ask for a free re-clean until [A-Z][a-z]{2} \d{1,2} / })
    .click();
  const card = page.locator("#reclean");
  await expect(card.getByRole("heading", { name: "Not happy with something?" })).toBeVisible();
  await expect(card).toContainText("We re-clean it free within 7 days of delivery: until ");
  await card.getByLabel("Shirt (2 pieces)").check();
  await card.getByLabel("What is wrong?").fill("The collar of one shirt is still stained.");
  const pickup = card.getByLabel("Pickup Day and Window");
  const window = await pickup.locator("option:not([disabled])").nth(2).getAttribute("value");
  await pickup.selectOption(window ?? "");
  await card.screenshot({ path: test.info().outputPath("reclean-form-390x844.png") });
  await card.getByRole("button", { name: "Ask for a free re-clean" }).click();

  await expect(page).toHaveURL(/\/t\/[a-z0-9]+\?done=reclean$/);
  await expect(page.getByRole("heading", { name: `Free re-clean of order ${orderId}` })).toBeVisible();
  await expect(page.getByText("The collar of one shirt is still stained.")).toBeVisible();
  await expect(page.locator(".payment-state__balance")).toHaveText("Nothing to pay");
  await expect(page.getByText("Unpaid")).toHaveCount(0);
  const total = page.locator(".tracked-order .summary-list > div", { has: page.getByText("Total", { exact: true }) });
  await expect(total.locator("dd")).toHaveText("KSh 0");
  await expect(page.getByText("Till Number")).toHaveCount(0);
  const recleanId = /Order #([A-Z0-9]{8})/.exec(await page.locator(".tracked-order h2").innerText())?.[1] ?? "";
  await page.screenshot({ path: test.info().outputPath("reclean-booked-390x844.png") });
  expect(await textWith(`free re-clean of order ${orderId} booked, order ${recleanId}. Pickup `)).toContain("/t/");

  // Asked again from the delivered order's page: the shirts are taken, the kg line is not.
  await page.goto(receipt.replace(/\/receipt$/, "#reclean"));
  const taken = card.locator("label", { hasText: "Shirt (2 pieces)" });
  await expect(taken).toContainText(`re-cleaned in order ${recleanId}`);
  await expect(taken.getByRole("checkbox")).toBeDisabled();
  await expect(card.getByLabel("Wash & Fold (3 kg)")).toBeEnabled();
  await card.screenshot({ path: test.info().outputPath("reclean-taken-390x844.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("reclean-taken-1280x800.png") });
  expect(await violations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the re-clean form posts, answers a mistake next to its field, and redirects", async ({ page, browser }) => {
    const orderId = await placeOrder(page);
    await deliver(browser, orderId);
    const delivered = await textWith(`order ${orderId} delivered`);
    const orderPage = (/Receipt: (\S+)$/.exec(delivered)?.[1] ?? "").replace(/\/receipt$/, "");
    await page.goto(orderPage);
    const card = page.locator("#reclean");

    await card.getByLabel("What is wrong?").fill("Still smells of smoke");
    await card.getByRole("button", { name: "Ask for a free re-clean" }).click();
    await expect(card.getByText("Please choose what should be cleaned again.")).toBeVisible();
    await expect(card.getByLabel("What is wrong?")).toHaveValue("Still smells of smoke");

    await card.getByLabel("Wash & Fold (3 kg)").check();
    await card.getByRole("button", { name: "Ask for a free re-clean" }).click();
    await expect(page).toHaveURL(/\/t\/[a-z0-9]+\?done=reclean$/);
    await expect(page.getByRole("heading", { name: `Free re-clean of order ${orderId}` })).toBeVisible();
    await expect(page.getByText("Your free re-clean is booked.")).toBeVisible();
  });
});
