// The staff dashboard in a real browser: the sign-in in front of it, an order found by its
// reference and moved on by the status dropdown until the customer's tracking shows it, a payment
// and a message handled, the e-mail block of a server without e-mail settings, the phone layout,
// the keyboard tabs, axe-core's scan, and the sign-out.
import { expect, type Page, test } from "@playwright/test";
import { hydrated, placeOrder, violations, watchConsole } from "./support";

/** The one staff account of the browser tests' server. */
const STAFF = { email: "staff@example.com", password: "Browser-Test-Pass-2026" };

/** Signs in through the form, from wherever `path` sends a visitor who is not signed in. */
async function signIn(page: Page, path = "/admin") {
  await page.goto(path);
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
  await hydrated(page);
}

/** Places an order through the public form for `customer`; returns its reference. */
function placeOrderFor(page: Page, customer: string): Promise<string> {
  return placeOrder(page, {
    customer,
    phone: "0722 000 111",
    location: "Westlands, Woodvale Grove",
    service: "ironing",
    kg: "3",
  });
}

/** Searches the orders tab for a reference and waits for its row. */
async function findOrder(page: Page, reference: string) {
  const search = page.getByLabel("Search name, phone or order ID");
  await search.fill(reference);
  await search.press("Enter");
  const status = page.getByLabel(`Status of order ${reference}`);
  await expect(status).toBeVisible();
  return { status, row: page.locator("tr", { has: status }) };
}

test("the dashboard sends a visitor who is not signed in to the sign-in page", async ({ page }) => {
  await page.goto("/admin");

  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByRole("heading", { name: "Staff sign in" })).toBeVisible();
  await expect(page.getByText("Admin Dashboard")).toHaveCount(0);
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Staff sign in" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(STAFF.email);
});

test("staff mark an order ready from the dashboard, and the customer's tracking shows it", async ({ page }) => {
  const reference = await placeOrderFor(page, "Achieng Odhiambo");
  const problems = watchConsole(page);
  await signIn(page);
  await expect(page.getByText("Manage orders and customer inquiries")).toBeVisible();
  for (const title of ["Total Revenue", "Total Orders", "Pending Orders", "Messages"]) {
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  }

  const { status, row } = await findOrder(page, reference);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${reference}`));
  await expect(row.locator(".badge")).toHaveText("Pending");
  await expect(row).toContainText("Achieng Odhiambo");
  await expect(row).toContainText("3 kg");
  await expect(row).toContainText("KSh 600");
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await status.selectOption("ready");

  await expect(row.locator(".badge")).toHaveText("Ready for Delivery");
  await expect(status).toBeEnabled();
  await expect(status).toHaveValue("ready");
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(problems).toEqual([]);

  await page.goto("/tracking");
  await hydrated(page);
  await page.getByRole("radio", { name: "Order ID" }).check();
  await page.getByRole("textbox", { name: "Order ID" }).fill(reference);
  await page.getByRole("button", { name: "Track Order" }).click();
  const card = page.getByRole("article", { name: `Order #${reference}` });
  await expect(card.locator(".badge")).toHaveText("Ready for Delivery");
});

test("while a list loads the dashboard says so, and a status change that fails leaves the order as it was", async ({
  page,
}) => {
  const reference = await placeOrderFor(page, "Nyambura Wekesa");
  await signIn(page);
  // A slow connection: the list answers after a second.
  await page.route("**/api/admin/orders?*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  const search = page.getByLabel("Search name, phone or order ID");
  await search.fill(reference);
  await search.press("Enter");
  await expect(page.getByText("Loading admin dashboard...")).toBeVisible();
  const status = page.getByLabel(`Status of order ${reference}`);
  await expect(status).toBeVisible();
  await expect(page.getByText("Loading admin dashboard...")).toBeHidden();
  const row = page.locator("tr", { has: status });

  // The server cannot store the change.
  await page.route("**/api/admin/orders/*/status", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: "The database is busy. Please try again." }),
    }),
  );
  await status.selectOption("delivered");

  await expect(row.getByRole("alert")).toContainText("Please try again.");
  await expect(status).toHaveValue("pending");
  await expect(row.locator(".badge")).toHaveText("Pending");
  await page.unroute("**/api/admin/orders/*/status");
  await page.reload();
  await expect(page.getByLabel(`Status of order ${reference}`)).toHaveValue("pending");
});

test("a till payment is recorded with its M-PESA code, which cannot pay for a second order", async ({ page }) => {
  // A code of this run only: one code pays for one order in the whole database.
  const code = `QJ${Date.now().toString(36).toUpperCase()}`.padEnd(10, "X").slice(0, 10);
  const reference = await placeOrderFor(page, "Kamau Njoroge");
  const other = await placeOrderFor(page, "Wambui Karanja");
  await signIn(page);
  const { row } = await findOrder(page, reference);
  await expect(row).toContainText("Unpaid · M-PESA till");

  await row.getByRole("button", { name: `Payment of order ${reference}` }).click();
  const panel = page.getByRole("group", { name: `Payment of order ${reference}` });
  await panel.getByRole("radio", { name: "Paid by M-PESA" }).check();
  await panel.getByLabel("M-PESA code").fill("QJK3L5X9");
  await page.getByRole("button", { name: "Save payment" }).click();
  await expect(panel.getByLabel("M-PESA code")).toHaveAttribute("aria-invalid", "true");
  await panel.getByLabel("M-PESA code").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Save payment" }).click();

  await expect(row).toContainText(`Paid · M-PESA ${code}`);
  await expect(page.getByRole("group", { name: `Payment of order ${reference}` })).toHaveCount(0);
  await expect(row.getByRole("button", { name: `Payment of order ${reference}` })).toBeFocused();

  const second = (await findOrder(page, other)).row;
  await second.getByRole("button", { name: `Payment of order ${other}` }).click();
  const otherPanel = page.getByRole("group", { name: `Payment of order ${other}` });
  await otherPanel.getByRole("radio", { name: "Paid by M-PESA" }).check();
  await otherPanel.getByLabel("M-PESA code").fill(code);
  await page.getByRole("button", { name: "Save payment" }).click();

  await expect(otherPanel).toContainText(`This M-PESA code is already recorded for order ${reference}.`);
  await expect(otherPanel.getByLabel("M-PESA code")).toHaveAttribute("aria-invalid", "true");
  await expect(second).toContainText("Unpaid · M-PESA till");
});

test("a contact message is marked handled on the Messages tab", async ({ page }) => {
  const subject = `Duvet pickup ${Date.now()}`;
  await page.goto("/contact");
  await hydrated(page);
  await page.getByLabel("Full Name").fill("Njeri Mwangi");
  await page.getByLabel("Email Address").fill("njeri@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message").fill("Can you collect a king-size duvet?\nGate code 1234.");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you for your message! We will get back to you soon.")).toBeVisible();
  await signIn(page);

  await page.getByRole("tab", { name: /^Messages/ }).click();
  await expect(page).toHaveURL(/[?&]tab=messages/);
  const card = page.getByRole("article", { name: subject });
  await expect(card.getByText("New", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: "njeri@example.com" })).toHaveAttribute(
    "href",
    "mailto:njeri@example.com",
  );
  await card.getByRole("button", { name: "Mark handled" }).click();

  await expect(card.getByText("Handled", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Mark as new" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("tab", { name: /^Messages/ })).toHaveAttribute("aria-selected", "true");
});

test("without e-mail settings the dashboard says so, and that notifications wait", async ({ page }) => {
  await placeOrderFor(page, "Mumbi Gathoni");
  await signIn(page);

  // The browser tests' server has no EMAILJS_* settings: the new order's e-mail waits in the outbox.
  const mail = page.getByRole("status").filter({ hasText: "E-mail is not configured" });
  await expect(mail).toBeVisible();
  await expect(mail).toContainText("EMAILJS_SERVICE_ID");
  await expect(mail).toContainText("Notifications wait in the outbox and are sent once it is.");
  await expect(mail).toContainText(/0 failed · 0 blocked · [1-9]\d* waiting/);
  const [box, tabs] = await Promise.all([
    mail.boundingBox(),
    page.getByRole("tablist", { name: "Dashboard" }).boundingBox(),
  ]);
  expect(box && tabs && box.y + box.height <= tabs.y).toBe(true);
});

test("the tabs follow the arrow keys", async ({ page }) => {
  await signIn(page);
  const orders = page.getByRole("tab", { name: /^Orders/ });
  const messages = page.getByRole("tab", { name: /^Messages/ });
  await expect(orders).toHaveAttribute("aria-selected", "true");

  await orders.focus();
  await page.keyboard.press("ArrowRight");

  await expect(messages).toBeFocused();
  await expect(messages).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: /^Messages/ })).toBeVisible();
  await expect(page).toHaveURL(/[?&]tab=messages/);
  await page.keyboard.press("ArrowLeft");
  await expect(orders).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: /^Orders/ })).toBeVisible();
});

test("on a phone the orders are cards and the page does not scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const reference = await placeOrderFor(page, "Otieno Ouma");
  await signIn(page);
  const { status } = await findOrder(page, reference);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await status.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).not.toHaveURL(/\/admin$/);
  await page.goto("/admin");

  await expect(page).toHaveURL(/\/admin\/login/);
});

test.describe("accessibility", () => {
  // axe is injected as an inline script, which the site's Content-Security-Policy rightly forbids.
  test.use({ bypassCSP: true });
  for (const width of [375, 1280]) {
    test(`the dashboard has no accessibility violation at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      const reference = await placeOrderFor(page, "Wairimu Kariuki");
      await signIn(page);
      await findOrder(page, reference);
      expect(await violations(page)).toEqual([]);

      await page.getByRole("button", { name: `Payment of order ${reference}` }).click();
      expect(await violations(page)).toEqual([]);

      await page.getByRole("tab", { name: /^Messages/ }).click();
      expect(await violations(page)).toEqual([]);
    });
  }
});
