// The staff dashboard in a real browser: the sign-in in front of it, an order found by its order
// ID and moved on by the status dropdown until the customer's tracking shows it, a part payment and
// its correction from the ledger, a cancelled paid order refunded, a message handled, an order's
// detail at phone and desktop sizes, new orders arriving by the poll and late ones standing out, the
// outbox block of a server without e-mail or SMS settings, the phone layout, the keyboard tabs,
// axe-core's scan, and the sign-out.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { hydrated, placeOrder, signIn, STAFF, violations, watchConsole } from "./support";

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

/** An order with an e-mail, instructions and pieces, placed through the API; returns its order ID. */
async function placeDetailedOrder(page: Page, customer: string, location: string): Promise<string> {
  const response = await page.request.post("/api/orders", {
    data: {
      customerName: customer,
      phone: "0733 444 555",
      email: "wanjiru@example.com",
      location,
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
      specialInstructions: "Blue gate, call on arrival",
      landmark: "Opposite Valley Arcade",
      rush: true,
      pieces: { shirt: 2 },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Makes the dashboard poll every second (its test hook), before any page of the test loads. */
async function pollEverySecond(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem("laundry.adminPollMs", "1000"));
}

/** The status badge of an order's row (the amount's cell has the money's). */
function statusBadge(row: Locator): Locator {
  return row.locator('td[data-label="Status"] .badge');
}

/** Searches the orders tab for an order ID and waits for its row. */
async function findOrder(page: Page, reference: string) {
  const search = page.getByLabel("Search name, location, phone or order ID");
  await search.fill(reference);
  await search.press("Enter");
  const status = page.getByLabel(`Status of order ${reference}`);
  await expect(status).toBeVisible();
  // The row may show before the search's answer replaces the list (dimmed while it loads).
  await expect(page.locator(".tab-panel.is-loading")).toHaveCount(0);
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
  await expect(statusBadge(row)).toHaveText("Pending");
  await expect(row).toContainText("Achieng Odhiambo");
  await expect(row).toContainText("3 kg");
  await expect(row).toContainText("KSh 600");
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await status.selectOption("ready");
  // Marking it ready asks where it hangs.
  await page.getByRole("button", { name: "Mark ready" }).click();
  await expect(page.getByText("Choose the rack where the order hangs.")).toBeVisible();
  await page.getByLabel("Rack").selectOption("B2");
  await page.getByRole("button", { name: "Mark ready" }).click();

  await expect(statusBadge(row)).toHaveText("Ready for Delivery");
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
  const search = page.getByLabel("Search name, location, phone or order ID");
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
  await expect(statusBadge(row)).toHaveText("Pending");
  await page.unroute("**/api/admin/orders/*/status");
  await page.reload();
  await expect(page.getByLabel(`Status of order ${reference}`)).toHaveValue("pending");
});

test("a part payment by M-PESA code is entered once, and a mistake is corrected from the ledger", async ({ page }) => {
  // A code of this run only: one code pays for one order in the whole database.
  const code = `QJ${Date.now().toString(36).toUpperCase()}`.padEnd(10, "X").slice(0, 10);
  const reference = await placeOrderFor(page, "Kamau Njoroge");
  const other = await placeOrderFor(page, "Wambui Karanja");
  await signIn(page);
  const { row } = await findOrder(page, reference);
  await expect(row.locator(".orders-table__money")).toHaveText("Unpaid KSh 600 to pay");

  const payment = row.getByRole("button", { name: `Payment of order ${reference}` });
  await payment.click();
  const panel = page.getByRole("group", { name: `Payment of order ${reference}` });
  await expect(panel.getByLabel("Amount received (KSh)")).toHaveValue("600");
  await panel.getByRole("radio", { name: "Paid by M-PESA" }).check();
  await panel.getByLabel("M-PESA code").fill("QJK3L5X9");
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(panel.getByLabel("M-PESA code")).toHaveAttribute("aria-invalid", "true");
  await expect(panel.getByLabel("M-PESA code")).toBeFocused();
  await panel.getByLabel("M-PESA code").fill(code.toLowerCase());
  await panel.getByLabel("Amount received (KSh)").fill("400");
  await page.getByRole("button", { name: "Record payment" }).click();

  await expect(row.locator(".orders-table__money")).toHaveText("Part-paid Paid KSh 400 · KSh 200 to pay");
  await expect(page.getByRole("group", { name: `Payment of order ${reference}` })).toHaveCount(0);
  await expect(payment).toBeFocused();
  await expect(page.getByRole("region", { name: /Today's takings/ })).toContainText("M-PESA code");

  const second = (await findOrder(page, other)).row;
  await second.getByRole("button", { name: `Payment of order ${other}` }).click();
  const otherPanel = page.getByRole("group", { name: `Payment of order ${other}` });
  await otherPanel.getByRole("radio", { name: "Paid by M-PESA" }).check();
  await otherPanel.getByLabel("M-PESA code").fill(code);
  await page.getByRole("button", { name: "Record payment" }).click();

  await expect(otherPanel).toContainText(`This M-PESA code is already recorded for order ${reference}.`);
  await expect(otherPanel.getByLabel("M-PESA code")).toHaveAttribute("aria-invalid", "true");
  await expect(second.locator(".orders-table__money")).toHaveText("Unpaid KSh 600 to pay");

  // The code was typed on the wrong order after all: the ledger corrects it, with the reason.
  const first = (await findOrder(page, reference)).row;
  await first.getByRole("button", { name: `Details of order #${reference}` }).click();
  const dialog = page.getByRole("dialog", { name: `Order #${reference}` });
  const ledger = dialog.getByRole("table", { name: "Ledger" });
  await expect(
    ledger.getByRole("row", { name: new RegExp(`^Payment KSh 400 M-PESA code ${code} ${STAFF.email}`) }),
  ).toBeVisible();
  await ledger.getByRole("button", { name: /^Correct the payment of KSh 400/ }).click();
  await dialog.getByRole("button", { name: "Correct entry" }).click();
  await expect(dialog.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Reason").fill("Typed on the wrong order");
  await dialog.getByRole("button", { name: "Correct entry" }).click();

  await expect(dialog.getByRole("status").filter({ hasText: "corrected" })).toHaveText(
    "Payment (M-PESA code) of KSh 400 corrected. KSh 600 to pay.",
  );
  await expect(ledger.getByRole("row", { name: /^Correction of a payment − KSh 400/ })).toContainText(
    "Typed on the wrong order",
  );
  await expect(ledger.getByRole("button", { name: /^Correct the/ })).toHaveCount(0);
  await expect(ledger.getByRole("row", { name: /^Balance/ })).toContainText(
    "Charged KSh 600 · Paid KSh 0 · Refunded KSh 0 · KSh 600 to pay",
  );
  await page.keyboard.press("Escape");
  await expect(first.locator(".orders-table__money")).toHaveText("Unpaid KSh 600 to pay");
});

test("cash a valet took is typed in under the valet, and an unknown one is refused beside its field", async ({
  page,
}) => {
  const reference = await placeOrderFor(page, "Otieno Ouma");
  await signIn(page);
  const { row } = await findOrder(page, reference);
  await row.getByRole("button", { name: `Payment of order ${reference}` }).click();
  const panel = page.getByRole("group", { name: `Payment of order ${reference}` });
  await panel.getByRole("radio", { name: "Paid in cash" }).check();
  const taker = panel.getByLabel("Taken by (optional)");
  await taker.fill("nobody@example.com");
  await page.getByRole("button", { name: "Record payment" }).click();

  await expect(panel).toContainText("There is no active account nobody@example.com");
  await expect(taker).toHaveAttribute("aria-invalid", "true");
  await expect(taker).toBeFocused();
  await expect(row.locator(".orders-table__money")).toHaveText("Unpaid KSh 600 to pay");
  await panel.getByRole("radio", { name: "Paid by M-PESA" }).check();
  await expect(panel.getByLabel("Taken by (optional)")).toHaveCount(0);
  await panel.getByRole("radio", { name: "Paid in cash" }).check();
  await panel.getByLabel("Taken by (optional)").fill(STAFF.email);
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(row.locator(".orders-table__money")).toHaveText("Paid Paid KSh 600");
});

test("a cancelled paid order's money is given back from its ledger, and leaves the refunds due", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const reference = await placeOrderFor(page, "Chebet Kiprono");
  await signIn(page);
  const { row, status } = await findOrder(page, reference);
  await row.getByRole("button", { name: `Payment of order ${reference}` }).click();
  await page
    .getByRole("group", { name: `Payment of order ${reference}` })
    .getByRole("radio", { name: "Paid in cash" })
    .check();
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(row.locator(".orders-table__money")).toHaveText("Paid Paid KSh 600");

  await status.selectOption("cancelled");
  const confirm = page.locator("form.status-panel");
  await expect(confirm).toContainText("KSh 600 was paid: it will be owed back to the customer.");
  await confirm.getByLabel("Reason").fill("Customer is travelling");
  await confirm.getByRole("button", { name: "Cancel order" }).click();
  await expect(row.locator(".orders-table__money")).toHaveText(
    "In credit Paid KSh 600 · KSh 600 owed back to the customer",
  );

  await page.getByRole("tab", { name: "Money" }).click();
  const refunds = page.getByRole("region", { name: "Refunds due" });
  await expect(refunds.getByRole("listitem").filter({ hasText: `#${reference}` })).toContainText("KSh 600");

  await refunds.getByRole("button", { name: `Details of order #${reference}` }).click();
  const dialog = page.getByRole("dialog", { name: `Order #${reference}` });
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(dialog.getByLabel("Amount given back (KSh)")).toHaveValue("600");
  await dialog.getByLabel("Amount given back (KSh)").fill("700");
  await dialog.getByRole("button", { name: "Record refund" }).click();
  await expect(dialog.getByLabel("Amount given back (KSh)")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("This order owes KSh 600 back; a refund cannot be more.");
  await dialog.getByLabel("Amount given back (KSh)").fill("600");
  await dialog.getByRole("radio", { name: "M-PESA reversal" }).check();
  await dialog.getByLabel("Reference").fill("QRV1234567");
  await dialog.getByRole("button", { name: "Record refund" }).click();

  await expect(dialog.getByRole("status").filter({ hasText: "Refund" })).toHaveText(
    "Refund of KSh 600 recorded (M-PESA reversal). Nothing to pay.",
  );
  await expect(
    dialog
      .getByRole("table", { name: "Ledger" })
      .getByRole("row", { name: /^Refund KSh 600 M-PESA reversal QRV1234567/ }),
  ).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await dialog.getByRole("table", { name: "Ledger" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("order-ledger-1280x800.png") });
  await page.keyboard.press("Escape");
  await expect(refunds.getByRole("listitem").filter({ hasText: `#${reference}` })).toHaveCount(0);
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

test("without e-mail or SMS settings the dashboard says so, and that messages wait", async ({ page }) => {
  await placeOrderFor(page, "Mumbi Gathoni");
  await signIn(page);

  // The browser tests' server has no EMAILJS_* settings: the new order's e-mail waits in the outbox.
  const mail = page.getByRole("status").filter({ hasText: "E-mail is not configured" });
  await expect(mail).toBeVisible();
  await expect(mail).toContainText("EMAILJS_SERVICE_ID");
  await expect(mail).toContainText("Notifications wait in the outbox and are sent once it is.");
  await expect(mail).toContainText(/0 failed · 0 blocked · [1-9]\d* waiting/);
  // Nor AT_* settings: the order's text waits too, and the same block says so.
  await expect(mail).toContainText(
    "SMS is not configured: AT_USERNAME, AT_API_KEY. Texts wait in the outbox and are sent once it is.",
  );
  await expect(mail).toContainText(/0 failed · 0 blocked · 0 not delivered · [1-9]\d* waiting/);
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

test("signing out ends the session and the login page says so", async ({ page }) => {
  await signIn(page);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByRole("status").filter({ hasText: "You have signed out." })).toBeVisible();
  await page.goto("/admin");

  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByText("You have signed out.")).toHaveCount(0);
});

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`staff open an order's detail at ${width}×${height}: what the customer gave, the lines and the history`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    const location = `Kileleshwa, Othaya Rd ${Date.now()}`;
    const id = await placeDetailedOrder(page, "Wanjiru Kamau", location);
    await signIn(page);
    const { status, row } = await findOrder(page, id);
    await expect(row).toContainText(`Pickup: ${location}`);
    await expect(row).toContainText("Landmark: Opposite Valley Arcade");
    await expect(row).toContainText("Next-day rush");
    const window = /\w{3} \d{1,2} \w{3}, \d{2}:\d{2}-\d{2}:\d{2}/;
    const dateCell = row.locator('td[data-label="Date"]');
    await expect(dateCell).toContainText(new RegExp(`Pickup ${window.source} · to confirm`));
    await expect(dateCell).toContainText(new RegExp(`Delivery ${window.source}`));
    await expect(row.locator("time")).toHaveText(/^\w{3}, \d{1,2} \w{3} \d{4} at \d{2}:\d{2}$/);
    await row.screenshot({ path: test.info().outputPath(`order-row-${width}.png`) });
    await status.selectOption("picked-up");
    await expect(statusBadge(row)).toHaveText("Picked Up");

    const opener = row.getByRole("button", { name: `Details of order #${id}` });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: `Order #${id}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Wanjiru Kamau");
    await expect(dialog.getByRole("link", { name: "+254733444555" })).toHaveAttribute("href", "tel:+254733444555");
    await expect(dialog.getByRole("link", { name: "wanjiru@example.com" })).toBeVisible();
    await expect(dialog).toContainText(location);
    await expect(dialog).toContainText("Blue gate, call on arrival");
    const visit = dialog.getByRole("region", { name: "Pickup and delivery" });
    await expect(visit).toContainText(new RegExp(`Pickup${window.source} · picked up`));
    await expect(visit).toContainText("Next-day rushYes: delivered the day after pickup");
    await expect(dialog).toContainText("LandmarkOpposite Valley Arcade");
    await expect(dialog).toContainText("Pay on Delivery");
    const lines = dialog.getByRole("table", { name: "What the customer ordered" });
    await expect(lines.getByRole("row", { name: /Wash & Fold 3 kg KSh 450/ })).toBeVisible();
    await expect(lines.getByRole("row", { name: /Shirt 2 pieces KSh 400/ })).toBeVisible();
    await expect(lines.getByRole("row", { name: /^Next-day rush KSh 300$/ })).toBeVisible();
    await expect(lines.getByRole("row", { name: /Total KSh 1,150/ })).toBeVisible();
    await expect(dialog.getByRole("region", { name: "Payment" })).toContainText("Unpaid KSh 1,150 to pay");
    await expect(dialog.getByRole("table", { name: "Ledger" }).getByRole("row", { name: /^Balance/ })).toContainText(
      "Charged KSh 1,150 · Paid KSh 0 · Refunded KSh 0 · KSh 1,150 to pay",
    );
    const history = dialog.getByRole("region", { name: "Status history" }).getByRole("listitem");
    await expect(history).toHaveCount(2);
    await expect(history.nth(0)).toContainText("Pending");
    await expect(history.nth(0)).toContainText("placed by the customer");
    await expect(history.nth(1)).toContainText("Picked Up");
    await expect(history.nth(1)).toContainText(`by ${STAFF.email}`);
    await expect(dialog.getByRole("region", { name: "E-mails" })).toContainText("New order (to staff)");

    await page.screenshot({ path: test.info().outputPath(`order-detail-${width}.png`) });
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width && box.y >= 0).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
    await opener.press("Enter");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
}

test("a new order appears without a reload, in the list as the staff member left it", async ({ page }) => {
  await pollEverySecond(page);
  const area = `Lavington ${Date.now()}`;
  await placeDetailedOrder(page, "Early Customer", area);
  await signIn(page);
  const search = page.getByLabel("Search name, location, phone or order ID");
  await search.fill(area);
  await search.press("Enter");
  await expect(page.getByRole("row", { name: /Early Customer/ })).toBeVisible();
  await page
    .getByRole("row", { name: /Early Customer/ })
    .getByRole("button", { name: /^Payment of order/ })
    .click();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await placeDetailedOrder(page, "Late Customer", area);

  await expect(page.getByRole("row", { name: /Late Customer/ })).toBeVisible({ timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expect(search).toHaveValue(area);
  await expect(page.getByRole("group", { name: /^Payment of order/ })).toBeVisible();
  await expect(page.getByText("1 new order.")).toBeAttached();
});

test("an order still pending 30 minutes after it was placed stands out", async ({ page }) => {
  await pollEverySecond(page);
  const id = await placeDetailedOrder(page, "Mwangi Kariuki", `Parklands ${Date.now()}`);
  await signIn(page);
  const { row } = await findOrder(page, id);
  await expect(row).not.toContainText(/Waiting \d/);
  await expect(row).not.toHaveClass(/is-overdue/);

  // The server's clock moves on 42 minutes: the next poll's answer says so.
  await page.route("**/api/admin/orders?*", async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { now: string };
    const later = new Date(Date.parse(answer.now) + 42 * 60_000).toISOString();
    await route.fulfill({ response, json: { ...answer, now: later } });
  });

  await expect(row).toContainText(/Waiting 4[23] min/);
  await expect(row).toHaveClass(/is-overdue/);
});

test("on a phone a long status badge stays inside its cell, clear of the date", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const reference = await placeOrderFor(page, "Chebet Langat");
  await signIn(page);
  const { status, row } = await findOrder(page, reference);
  await status.selectOption("ready");
  await page.getByLabel("Rack").selectOption("A1");
  await page.getByRole("button", { name: "Mark ready" }).click();
  await expect(statusBadge(row)).toHaveText("Ready for Delivery");

  const [badge, statusCell, date] = await Promise.all([
    statusBadge(row).boundingBox(),
    row.locator('td[data-label="Status"]').boundingBox(),
    row.locator('td[data-label="Date"]').boundingBox(),
  ]);
  expect(badge && statusCell && date).toBeTruthy();
  if (!badge || !statusCell || !date) return;
  expect(badge.x + badge.width).toBeLessThanOrEqual(statusCell.x + statusCell.width + 0.5);
  const overlaps =
    badge.x < date.x + date.width &&
    date.x < badge.x + badge.width &&
    badge.y < date.y + date.height &&
    date.y < badge.y + badge.height;
  expect(overlaps).toBe(false);
  await row.screenshot({ path: test.info().outputPath("badge-390x844.png") });
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

      await page.getByRole("button", { name: `Details of order #${reference}` }).click();
      await expect(page.getByRole("dialog").getByRole("region", { name: "E-mails" })).toBeVisible();
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await page.getByRole("tab", { name: /^Messages/ }).click();
      expect(await violations(page)).toEqual([]);

      await page.getByRole("tab", { name: "Money" }).click();
      await expect(
        page.getByRole("region", { name: "Balances" }).getByRole("heading", { name: "Orders owing" }),
      ).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });
  }
});
