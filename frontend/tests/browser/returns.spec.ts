// Returning laundry as it is (issue 49), in the browser, against a server of this file's own:
// staff at 1280×800 cancel an order whose laundry was collected, and the cancel panel asks how the
// laundry goes back (a window, or at the shop); the customer's text says when; the valet, on a
// 390×844 phone without JavaScript, finds the return on the run, with nothing to collect, and hands
// it back. The valet sees today's run only, so this server's one window opens a few minutes from
// now (Nairobi time), with no cut-off.
import { expect, test } from "@playwright/test";
import { type FakedServer, signIn, startServerWithFakes, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true });

const STAFF = { email: "returns-staff@example.com", password: "Browser-Test-Pass-2026" };
const VALET = { email: "returns-valet@example.com", password: "Browser-Test-Pass-2026", role: "valet" };
const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

function nairobiMinute(): number {
  const now = new Date();
  return ((now.getUTCHours() + 3) % 24) * 60 + now.getUTCMinutes();
}
const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
const start = Math.ceil((nairobiMinute() + 10) / 5) * 5;
const end = Math.min(start + 60, 24 * 60);
const roomToday = end - start >= 30;
const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);

let server: FakedServer;

test.beforeAll(async () => {
  const tonight = { LAUNDRY_PICKUP_WINDOWS: `${clock(start)}-${clock(end)}`, LAUNDRY_BOOKING_CUTOFF_MINUTES: "0" };
  server = await startServerWithFakes("returns", STAFF, { accounts: [VALET], env: roomToday ? tonight : {} });
});

test.afterAll(async () => {
  server?.stop();
});

test("a cancelled order's collected laundry goes back on a return stop the valet runs without JavaScript", async ({
  browser,
}) => {
  test.skip(!roomToday, "less than 40 minutes of today are left in Nairobi for a window");
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ viewport: DESK })).newPage();
  const problems = watchConsole(page);
  const csrf = await signIn(page, { account: STAFF, from: `${server.base}/admin/login` });
  const api = async (path: string, data: unknown) => {
    const answer = await page.request.post(`${server.base}/api${path}`, { data, headers: { "X-CSRF-Token": csrf } });
    expect(answer.status(), await answer.text()).toBe(200);
    return answer;
  };
  const slots = await page.request.get(`${server.base}/api/slots?date=${today}`);
  const window = ((await slots.json()) as { windows: { value: string; label: string }[] }).windows[0];
  expect(window).toBeTruthy();
  const placed = await page.request.post(`${server.base}/api/orders`, {
    data: {
      customerName: "Njeri Returned",
      phone: "+254711500600",
      location: "Kileleshwa, Othaya Rd",
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
      pickup: window?.value,
    },
  });
  expect(placed.status()).toBe(201);
  const id = ((await placed.json()) as { id: string }).id;
  await api(`/admin/orders/${id}/status`, { status: "picked-up", notifyCustomer: false });

  // The dashboard's cancel panel asks how the laundry goes back, and will not cancel until told.
  await page.goto(`${server.base}/admin`);
  const search = page.getByLabel("Search name, location, phone or order ID");
  await search.fill(id);
  await search.press("Enter");
  const status = page.getByLabel(`Status of order ${id}`);
  await expect(page.locator(".tab-panel.is-loading")).toHaveCount(0);
  await status.selectOption("cancelled");
  const panel = page.locator("form.status-panel");
  await expect(panel).toContainText("The laundry was collected: it goes back as it is");
  await panel.getByLabel("Reason").fill("The customer moved house");
  await panel.getByRole("button", { name: "Cancel order" }).click();
  await expect(panel).toContainText("Choose when the laundry goes back to the customer");
  await panel.getByLabel("The laundry goes back").selectOption({ index: 2 });
  await page.screenshot({ path: test.info().outputPath("cancel-return-1280x800.png") });
  expect(await violations(page)).toEqual([]);
  await panel.getByRole("button", { name: "Cancel order" }).click();
  await expect(panel).toHaveCount(0);
  const text = await server.textWith(`order ${id} has been cancelled.`);
  expect(text.message).toContain("Your clothes come back as they are on");

  // The return in the valet's run tonight.
  const run = (await (
    await page.request.get(`${server.base}/api/admin/run?date=${today}`, { headers: { "X-CSRF-Token": csrf } })
  ).json()) as {
    windows: { stops: { id: string; kind: string; orderId: string }[] }[];
    valets: { id: string; email: string }[];
  };
  const stop = run.windows.flatMap((w) => w.stops).find((s) => s.orderId === id && s.kind === "delivery");
  const valetId = run.valets.find((v) => v.email === VALET.email)?.id;
  expect(stop && valetId).toBeTruthy();
  await api("/admin/run", { date: today, stops: [{ stopId: stop?.id, valetId, position: 1 }] });

  // The valet, on a phone without JavaScript: a return, numbered 1, nothing to collect.
  const valet = await (await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })).newPage();
  await signIn(valet, { account: VALET, from: `${server.base}/admin/login`, landing: /\/valet$/ });
  const card = valet.locator("li.stop", { hasText: `#${id}` });
  await expect(card.getByRole("heading", { level: 2 })).toContainText(`1. Return ${clock(start)}-${clock(end)}`);
  await expect(card).toContainText(
    "The order was cancelled: hand the laundry back as it is. There is nothing to collect.",
  );
  await expect(card.getByRole("button", { name: "M-PESA prompt" })).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await valet.screenshot({ path: test.info().outputPath("valet-return-390x844.png") });
  await card.getByRole("button", { name: "Delivered" }).click();
  await expect(valet.locator("li.stop", { hasText: `#${id}` })).toContainText("Delivered at");
  const back = await server.textWith(`your clothes from cancelled order ${id} were handed back.`);
  expect(back.message).toContain("Questions? Call");
  expect(problems).toEqual([]);
});
