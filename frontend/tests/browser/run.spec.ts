// A pickup from booking to the valet's door, in a real browser: a customer books a window on a
// phone, staff confirm it and put it in a valet's run on the desktop, the valet runs the day from a
// 390×844 phone, and the customer's own page (/t/…) shows the stops before them and the ETA change.
//
// The run must happen today, whatever the hour the tests run at, so this file starts a server of
// its own whose one pickup window opens a quarter of an hour after the test starts (Nairobi time,
// whatever the machine's time zone), with no cut-off.
import type { ChildProcess } from "node:child_process";
import { type Browser, type Page, expect, test } from "@playwright/test";
import { OWN_SERVER_PASSWORD as PASSWORD, hydrated, signIn, startOwnServer, watchConsole } from "./support";

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 7;
const BASE = `http://127.0.0.1:${PORT}`;
const STAFF = "dispatch@example.com";
const VALET = "otieno@example.com";
const PHONE = { width: 390, height: 844 };

/** Minutes after Nairobi's midnight, now (UTC+3 all year). */
function nairobiMinute(): number {
  const now = new Date();
  return ((now.getUTCHours() + 3) % 24) * 60 + now.getUTCMinutes();
}

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

// The window: from the next five minutes after a quarter of an hour from now, for an hour (or to
// midnight). Late at night there is no room left today for a window and its ETA.
const start = Math.ceil((nairobiMinute() + 15) / 5) * 5;
const end = Math.min(start + 60, 24 * 60);
const roomToday = end - start >= 45;

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  if (!roomToday) return;
  server = await startOwnServer({
    port: PORT,
    name: "run",
    env: {
      LAUNDRY_PICKUP_WINDOWS: `${clock(start)}-${clock(end)}`,
      LAUNDRY_BOOKING_CUTOFF_MINUTES: "0",
      LAUNDRY_MINUTES_PER_STOP: "15",
      // The server's own zone must not matter: Nairobi is UTC+3, this is UTC-7 or -8.
      TZ: "America/Los_Angeles",
    },
    accounts: [
      [STAFF, "staff"],
      [VALET, "valet"],
    ],
  });
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, viewport: PHONE, isMobile: true, hasTouch: true });
  return context.newPage();
}

/** The ETA window the server should show: `minute` rounded down to five minutes, for 30 minutes. */
const eta = (minute: number) => {
  const from = Math.floor(minute / 5) * 5;
  return `${clock(from)}-${clock(from + 30)}`;
};

test("a slot booked on a phone is confirmed, run by the valet, and the customer sees the valet come closer", async ({
  browser,
}) => {
  test.skip(!roomToday, "less than 45 minutes of today are left in Nairobi for a pickup window");
  test.setTimeout(90_000);
  const value = await (
    await fetch(`${BASE}/api/slots?date=${new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)}`)
  ).json();
  const pickup = (value as { windows: { value: string; remaining: number }[] }).windows[0];
  if (!pickup) throw new Error("/api/slots answered no window for today");
  expect(pickup.remaining).toBeGreaterThan(0);

  // Another customer booked the same window first: their stop will come before ours.
  const earlier = await fetch(`${BASE}/api/orders`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      customerName: "Achieng Odhiambo",
      phone: "0711 222 333",
      location: "Kilimani, Argwings Kodhek Rd",
      serviceType: "wash-fold",
      quantity: 2,
      paymentMethod: "pay-delivery",
      pickup: pickup.value,
    }),
  });
  expect(earlier.status).toBe(201);
  const first = ((await earlier.json()) as { id: string }).id;

  // The customer books on their phone, with a landmark, and opens their order's own page.
  const customer = await phonePage(browser);
  const errors = watchConsole(customer);
  await customer.goto("/order");
  await hydrated(customer);
  await customer.getByLabel("Full Name").fill("Amina Wanjiru");
  await customer.getByLabel("Phone Number").fill("0722 000 111");
  await customer.getByLabel("Location").fill("Westlands, Woodvale Grove");
  await customer.getByLabel("Landmark").fill("Opposite Sarit Centre, blue gate");
  await customer.getByLabel("Service Type").selectOption("wash-fold");
  await customer.getByLabel("Quantity (kg)").fill("3");
  await customer.getByLabel("Pickup Day and Window").selectOption(pickup.value);
  await customer.getByRole("button", { name: "Place Order" }).click();
  await expect(customer).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
  const ours = new URL(customer.url()).searchParams.get("ref") ?? "";
  await customer.getByRole("link", { name: "Track this order" }).click();
  await expect(customer).toHaveURL(/\/t\/[a-z0-9]{16}$/);
  const ownPage = customer.url();
  await expect(customer.getByText("Waiting for confirmation (we confirm within 30 minutes)")).toBeVisible();
  await expect(customer.getByText(/before you/)).toHaveCount(0);

  // Staff confirm both bookings, then put both stops in the valet's run, the other customer first.
  const desk = await (await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(desk, { account: { email: STAFF, password: PASSWORD }, from: "/admin/login" });
  await expect(desk).toHaveURL(/\/admin$/);
  for (const reference of [first, ours]) {
    const row = desk.locator("li.awaiting__item", { hasText: `#${reference}` });
    await row.getByRole("button", { name: "Confirm" }).click();
    await expect(row).toHaveCount(0);
  }
  await desk.getByRole("tab", { name: /^Day's run/ }).click();
  for (const reference of [first, ours]) {
    await desk
      .locator("li.run-stop", { hasText: `#${reference}` })
      .getByLabel("Valet")
      .selectOption({ label: VALET });
  }
  await desk.getByRole("button", { name: "Save the runs" }).click();
  await expect(desk.getByText("Saved.", { exact: true })).toBeVisible();
  const ourCard = desk.locator("li.run-stop", { hasText: `#${ours}` });
  await expect(ourCard.getByText("Stop 2 of the run")).toBeVisible();
  // Each stop says where its order is and what the valet collects.
  await expect(ourCard.locator(".run-stop__order")).toHaveText("Order status: Pending");
  await expect(ourCard.locator(".run-stop__money")).toHaveText(/^Collect KSh [\d,]+$/);
  await ourCard.screenshot({ path: test.info().outputPath("run-stop-1280.png") });

  // The customer's page: confirmed, one stop before them, expected a stop's time after the window opens.
  await customer.goto(ownPage);
  await expect(customer.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(customer.getByText(`1 stop before you, expected ${eta(start + 15)}`)).toBeVisible();

  // The valet, on a phone, sees their run in order and works through the first stop.
  const valet = await phonePage(browser);
  await signIn(valet, { account: { email: VALET, password: PASSWORD }, from: "/admin/login", landing: /\/valet$/ });
  const cards = valet.locator("li.stop");
  await expect(cards.first()).toContainText(`#${first}`);
  await expect(cards.nth(1)).toContainText(`#${ours}`);
  await cards.first().getByRole("button", { name: "On my way" }).click();
  await expect(valet).toHaveURL(/\/valet/);
  const firstCard = valet.locator("li.stop", { hasText: `#${first}` });
  await firstCard.screenshot({ path: test.info().outputPath("valet-pickup-390.png") });
  await firstCard.getByLabel("Bags").fill("1");
  // 2.4 kg on the scale is billed as 3 kg; the customer adds a shirt and, folded away, a dress.
  await firstCard.getByLabel(/^Weighed kg/).fill("2.4");
  await firstCard.getByLabel("Item added (Optional)", { exact: true }).selectOption("shirt");
  await firstCard.getByLabel("How many, item added", { exact: true }).fill("1");
  await firstCard.getByText("More items the customer added").click();
  await firstCard.getByLabel("Item added 2 (Optional)", { exact: true }).selectOption("dress");
  await firstCard.getByLabel("How many, item added 2", { exact: true }).fill("1");
  await firstCard.getByRole("button", { name: "Picked up" }).click();
  await expect(valet.getByText(`Picked up order ${first}: the bill is KSh 850.`)).toBeVisible();
  await expect(valet.locator("li.stop", { hasText: `#${first}` })).toContainText("Picked up");

  // The customer's page now: no stop before them, and the ETA follows the valet.
  await customer.goto(ownPage);
  const now = nairobiMinute();
  const expected = [eta(Math.max(start, now + 15)), eta(Math.max(start, now - 1 + 15))];
  await expect(customer.getByText(/^You are next, expected /)).toBeVisible();
  const said = (await customer.getByText(/^You are next, expected /).textContent()) ?? "";
  expect(expected.map((window) => `You are next, expected ${window}`)).toContain(said.trim());
  expect(said).not.toContain(eta(start + 15));
  expect(errors).toEqual([]);
});
