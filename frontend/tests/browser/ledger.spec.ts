// The ledger in the browser (issue 30), against a server of this file's own that texts through a mock
// Africa's Talking and sends prompts through a mock Daraja: a KSh 1,600 order on delivery whose
// customer paid KSh 1,100 to the till beforehand (staff enter it with its M-PESA code).
// - The valet, on a phone (390×844) without JavaScript, sees "collect KSh 500", the cash field
//   filled with it and no "Already paid", and records the delivery with KSh 500 cash; the receipt
//   then lists both payments and says "Paid KSh 1,600".
// - The customer's page says "Paid KSh 1,100 · KSh 500 to pay"; its button sends a prompt for the
//   KSh 500, M-PESA's callback pays it, and the page says "Paid KSh 1,600" without a reload.
// - Paid KSh 2,000 for it, without JavaScript the customer keeps the KSh 400 as store credit.
//
// The valet sees today's run only, so this server's one window opens a few minutes from now
// (Nairobi time), with no cut-off, and the delivery is moved into it.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type FakedServer, signIn, startServerWithFakes, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true });

const STAFF = { email: "ledger-staff@example.com", password: "Browser-Test-Pass-2026" };
const VALET = { email: "ledger-valet@example.com", password: "Browser-Test-Pass-2026", role: "valet" };
const PHONE = { width: 390, height: 844 };

/** Minutes after Nairobi's midnight, now (UTC+3 all year). */
function nairobiMinute(): number {
  const now = new Date();
  return ((now.getUTCHours() + 3) % 24) * 60 + now.getUTCMinutes();
}

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

// The window: from the next five minutes after ten minutes from now, for an hour (or to midnight).
const start = Math.ceil((nairobiMinute() + 10) / 5) * 5;
const end = Math.min(start + 60, 24 * 60);
const roomToday = end - start >= 30;
/** Today in Nairobi, `YYYY-MM-DD`. */
const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);

let server: FakedServer;

test.beforeAll(async () => {
  // Late at night there is no room left today: the default windows then, and no valet test.
  const tonight = { LAUNDRY_PICKUP_WINDOWS: `${clock(start)}-${clock(end)}`, LAUNDRY_BOOKING_CUTOFF_MINUTES: "0" };
  server = await startServerWithFakes("ledger", STAFF, {
    accounts: [VALET],
    env: roomToday ? tonight : {},
  });
});

test.afterAll(async () => {
  server?.stop();
});

/** Places 8 kg of ironing (KSh 1,600), paid on delivery, through the API as the form does, picked up
 * in `window` (as the form sends it) or the first open one; its order ID. */
async function placeOrder(page: Page, phone: string, window?: string): Promise<string> {
  const response = await page.request.post(`${server.base}/api/orders`, {
    data: {
      customerName: "Njeri Ledger",
      phone,
      location: "Kileleshwa, Othaya Rd",
      serviceType: "ironing",
      quantity: 8,
      paymentMethod: "pay-delivery",
      pickup: window,
    },
  });
  expect(response.status()).toBe(201);
  const order = (await response.json()) as { id: string; totalAmount: number };
  expect(order.totalAmount).toBe(1600);
  return order.id;
}

/** Tonight's window, as the order form sends it. */
async function tonight(page: Page): Promise<string> {
  const slots = await page.request.get(`${server.base}/api/slots?date=${today}`);
  const window = ((await slots.json()) as { windows: { value: string }[] }).windows[0]?.value ?? "";
  expect(window).toContain(today);
  return window;
}

/** Staff, signed in on a page of their own, and the staff API with the session's CSRF token (read from
 * the valet page, which staff may open too: the dashboard is not what this file tests). */
async function staffDesk(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, { account: STAFF, from: `${server.base}/admin/login`, landing: /\/admin$/ });
  await page.goto(`${server.base}/valet`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.content())?.[1] ?? "";
  expect(csrf).not.toBe("");
  const post = async (path: string, data: unknown) => {
    const answer = await page.request.post(`${server.base}/api${path}`, {
      data,
      headers: { "X-CSRF-Token": csrf },
    });
    expect(answer.status(), await answer.text()).toBe(200);
    return answer;
  };
  const get = async (path: string) => {
    const answer = await page.request.get(`${server.base}/api${path}`, { headers: { "X-CSRF-Token": csrf } });
    expect(answer.status()).toBe(200);
    return answer.json();
  };
  return { post, get, close: () => context.close() };
}

/** The order's own page, from the link in the text that says it was received. */
async function orderLink(id: string): Promise<string> {
  const text = await server.textWith(`order ${id} received.`);
  const link = /Track it: (\S+)$/.exec(text.message)?.[1] ?? "";
  expect(link).toMatch(/\/t\/[a-z0-9]+$/);
  return link;
}

test("without JavaScript, the valet collects only the rest of a part-paid order", async ({ browser }) => {
  test.skip(!roomToday, "less than 40 minutes of today are left in Nairobi for a window and its delivery");
  test.setTimeout(90_000);
  const desk = await staffDesk(browser);
  const valetContext = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
  const valet = await valetContext.newPage();
  const window = await tonight(valet);
  const id = await placeOrder(valet, "+254711300400", window);

  // Paid KSh 1,100 to the till before the door; picked up; its delivery moved to tonight, in the valet's run.
  await desk.post(`/admin/orders/${id}/payment`, { method: "mpesa", mpesaCode: "QLD1100ABC", amount: 1100 });
  await desk.post(`/admin/orders/${id}/status`, { status: "ready", rack: "A1" });
  await desk.post(`/admin/orders/${id}/slot`, { action: "move-delivery", delivery: window });
  const run = (await desk.get(`/admin/run?date=${today}`)) as {
    windows: { stops: { id: string; kind: string; orderId: string }[] }[];
    valets: { id: string; email: string }[];
  };
  const stop = run.windows.flatMap((w) => w.stops).find((s) => s.orderId === id && s.kind === "delivery");
  const valetId = run.valets.find((v) => v.email === VALET.email)?.id;
  expect(stop && valetId).toBeTruthy();
  await desk.post("/admin/run", { date: today, stops: [{ stopId: stop?.id, valetId, position: 1 }] });

  await signIn(valet, { account: VALET, from: `${server.base}/admin/login`, landing: /\/valet$/ });
  const card = valet.locator("li.stop", { hasText: `#${id}` });
  await expect(card).toContainText("Delivery");
  await expect(card.locator(".stop__pay")).toHaveText("Received KSh 1,100 · collect KSh 500");
  await expect(card.getByLabel("Cash collected (KSh)")).toHaveValue("500");
  await expect(card.getByText("Already paid")).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Send M-PESA prompt" })).toBeVisible();
  await expect(card).toContainText("The customer's phone asks for KSh 500");
  await card.getByLabel("Cash", { exact: true }).check();
  await card.scrollIntoViewIfNeeded();
  await valet.screenshot({ path: test.info().outputPath("valet-collect-500-390x844.png") });
  await card.screenshot({ path: test.info().outputPath("valet-card-390x844.png") });
  await card.getByRole("button", { name: "Delivered" }).click();

  const done = valet.locator("li.stop", { hasText: `#${id}` });
  await expect(done).toContainText("Delivered at");
  await expect(done.locator(".stop__pay")).toHaveText("Paid KSh 1,600 · nothing to collect");

  // The receipt: both payments, how and with what code, and the balance.
  const receipt = await valetContext.newPage();
  await receipt.goto(`${await orderLink(id)}/receipt`);
  const payment = receipt.locator(".receipt__payment");
  await expect(payment.locator("div", { hasText: "M-PESA code" })).toContainText("KSh 1,100");
  await expect(payment).toContainText("code QLD1100ABC");
  await expect(payment.locator("div", { hasText: "Cash" })).toContainText("KSh 500");
  await expect(payment.locator("div", { hasText: "Balance" })).toContainText("Paid KSh 1,600");
  await payment.scrollIntoViewIfNeeded();
  await receipt.screenshot({ path: test.info().outputPath("receipt-part-payments-390x844.png") });
  await desk.close();
  await valetContext.close();
});

test("the customer's page shows the balance and pays the rest with a prompt", async ({ browser }) => {
  const desk = await staffDesk(browser);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const problems = watchConsole(page);
  const phone = "+254711300500";
  const id = await placeOrder(page, phone);
  await desk.post(`/admin/orders/${id}/payment`, { method: "mpesa", mpesaCode: "QLC1100DEF", amount: 1100 });

  await page.goto(await orderLink(id));
  const card = page.locator(".payment-state");
  await expect(card.locator(".payment-state__balance")).toHaveText("Paid KSh 1,100 · KSh 500 to pay");
  const paid = card.locator(".payment-list li", { hasText: "M-PESA code" });
  await expect(paid).toContainText("KSh 1,100");
  await expect(paid).toContainText("code QLC1100DEF");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("customer-part-paid-390x844.png") });
  expect(await violations(page)).toEqual([]);

  // The button asks the phone for the rest only.
  await card.getByRole("button", { name: "Pay KSh 500 by M-PESA" }).click();
  await expect(page).toHaveURL(/\?done=prompt$/);
  await expect(page.getByText("We are sending the M-PESA prompt to your phone")).toBeVisible();
  await expect
    .poll(async () => (await server.prompts()).filter((prompt) => prompt.phone === "254711300500").length)
    .toBe(1);
  const prompt = (await server.prompts()).find((asked) => asked.phone === "254711300500");
  expect(prompt?.amount).toBe(500);
  await expect(card).toContainText("Check your phone: enter your M-PESA PIN to pay KSh 500.");

  // The phone pays; M-PESA calls back. The page, left alone, shows it.
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  if (prompt) await server.payPrompt(prompt, "QLP500GHIJ");
  await expect(card.locator(".payment-state__balance")).toHaveText("Paid KSh 1,600", { timeout: 15_000 });
  await expect(card.locator(".payment-list li", { hasText: "M-PESA prompt" })).toContainText("code QLP500GHIJ");
  await expect(card.getByRole("button", { name: /M-PESA/ })).toHaveCount(0);
  expect(navigations).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("customer-paid-390x844.png") });
  expect(problems).toEqual([]);
  await desk.close();
  await context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test("money paid over the bill is kept as credit with a plain form", async ({ browser, page }) => {
    const desk = await staffDesk(browser);
    const id = await placeOrder(page, "+254711300600");
    await desk.post(`/admin/orders/${id}/payment`, { method: "mpesa", mpesaCode: "QLX2000KLM", amount: 2000 });

    await page.goto(await orderLink(id));
    const card = page.locator(".payment-state");
    await expect(card.locator(".payment-state__balance")).toHaveText("Paid KSh 2,000 · KSh 400 to come back to you");
    await expect(card).toContainText("Otherwise we refund the KSh 400 to you.");
    await expect(card.getByRole("button", { name: /M-PESA/ })).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("customer-owed-back-390x844.png") });
    await card.getByRole("button", { name: "Keep KSh 400 as credit for my next order" }).click();

    await expect(page).toHaveURL(/\?done=credit$/);
    await expect(
      page.getByText(
        "Done: the money is kept as store credit for this phone number. The text of your next order has the link that uses it.",
      ),
    ).toBeVisible();
    await expect(card.locator(".payment-state__balance")).toHaveText("Paid KSh 1,600");
    await expect(card.locator(".payment-list li", { hasText: "Kept as store credit" })).toContainText("−KSh 400");
    await expect(card.getByRole("button", { name: /as credit/ })).toHaveCount(0);
    await desk.close();
  });
});
