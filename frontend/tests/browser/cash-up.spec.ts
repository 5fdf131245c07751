// The valets' cash-up in a real browser at 1280×800: two valets deliver three orders today and take
// cash at the door (one of them part of a bill), and the dashboard's Money tab shows the day's
// takings by method and each valet's cash, order by order; staff record the cash one valet hands
// in and see what that valet still holds. The deliveries go through the valets' own forms.
//
// Deliveries must happen today whatever the hour the tests run at, so this file starts a server of
// its own whose one window opens a quarter of an hour after the test starts (Nairobi time), like
// run.spec.ts.
import type { ChildProcess } from "node:child_process";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { OWN_SERVER_PASSWORD as PASSWORD, signIn, startOwnServer, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true });

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 8;
const BASE = `http://127.0.0.1:${PORT}`;
const STAFF = "cashier@example.com";
const OTIENO = "otieno@example.com";
const AKINYI = "akinyi@example.com";

/** Minutes after Nairobi's midnight, now (UTC+3 all year). */
function nairobiMinute(): number {
  const now = new Date();
  return ((now.getUTCHours() + 3) % 24) * 60 + now.getUTCMinutes();
}

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

// One window from a quarter of an hour from now, for an hour (or to midnight).
const start = Math.ceil((nairobiMinute() + 15) / 5) * 5;
const end = Math.min(start + 60, 24 * 60);
const roomToday = end - start >= 30;
/** Today in Nairobi, `YYYY-MM-DD`. */
const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  if (!roomToday) return;
  server = await startOwnServer({
    port: PORT,
    name: "cash-up",
    env: { LAUNDRY_PICKUP_WINDOWS: `${clock(start)}-${clock(end)}`, LAUNDRY_BOOKING_CUTOFF_MINUTES: "0" },
    accounts: [
      [STAFF, "staff"],
      [OTIENO, "valet"],
      [AKINYI, "valet"],
    ],
  });
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

/** A pay-on-delivery order of `kg` of wash & fold picked up in today's window: its order ID. */
async function placeOrder(page: Page, name: string, kg: number, window: string): Promise<string> {
  const response = await page.request.post(`${BASE}/api/orders`, {
    data: {
      customerName: name,
      phone: "0722 000 111",
      location: "Kilimani, Argwings Kodhek Rd",
      serviceType: "wash-fold",
      quantity: kg,
      paymentMethod: "pay-delivery",
      pickup: window,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The staff API, as the dashboard calls it. */
function staffApi(page: Page, csrf: string) {
  return async (path: string, data: unknown) => {
    const response = await page.request.post(`${BASE}${path}`, { data, headers: { "X-CSRF-Token": csrf } });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return response.json();
  };
}

/** A valet signed in on a phone: their session's CSRF token for the stops' forms. */
async function valetSession(browser: Browser, email: string): Promise<{ page: Page; csrf: string }> {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  await signIn(page, { account: { email, password: PASSWORD }, from: "/admin/login", landing: /\/valet$/ });
  const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value")) ?? "";
  return { page, csrf };
}

/** The valet's "Delivered" form with the cash taken at the door, as the phone sends it. */
async function deliverWithCash(valet: { page: Page; csrf: string }, stop: string, cash: number) {
  const response = await valet.page.request.post(`/valet/stops/${stop}/delivered`, {
    form: { csrf: valet.csrf, paid: "cash", cash: String(cash) },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(303);
}

test("the cash-up shows each valet's cash from the day's deliveries, and what they still hold once cash is handed in", async ({
  browser,
}) => {
  test.skip(!roomToday, "less than 30 minutes of today are left in Nairobi for a window");
  test.setTimeout(90_000);
  const desk = await (
    await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 }, bypassCSP: true })
  ).newPage();
  const problems = watchConsole(desk);
  const slots = (await (await desk.request.get(`${BASE}/api/slots?date=${today}`)).json()) as {
    windows: { value: string }[];
  };
  const window = slots.windows[0]?.value;
  if (!window) throw new Error("/api/slots answered no window for today");
  // KSh 450, 600 and 300: Otieno delivers the first two, Akinyi the third.
  const orders = [
    await placeOrder(desk, "Amina Wanjiru", 3, window),
    await placeOrder(desk, "Baraka Mwangi", 4, window),
    await placeOrder(desk, "Chebet Langat", 2, window),
  ];

  // Staff have the laundry (picked up), bring the deliveries to today and give them to the valets.
  const csrf = await signIn(desk, { account: { email: STAFF, password: PASSWORD }, from: "/admin/login" });
  const post = staffApi(desk, csrf);
  for (const order of orders) {
    await post(`/api/admin/orders/${order}/status`, { status: "picked-up", notifyCustomer: false });
    await post(`/api/admin/orders/${order}/slot`, { action: "move-delivery", delivery: window });
  }
  const board = (await (await desk.request.get(`${BASE}/api/admin/run?date=${today}`)).json()) as {
    windows: { stops: { id: string; kind: string; orderId: string }[] }[];
    valets: { id: string; email: string }[];
  };
  const delivery = (order: string) =>
    board.windows.flatMap((w) => w.stops).find((stop) => stop.kind === "delivery" && stop.orderId === order)?.id ?? "";
  const valetId = (email: string) => board.valets.find((valet) => valet.email === email)?.id ?? "";
  const runs: [string, string, number][] = [
    [orders[0] ?? "", OTIENO, 1],
    [orders[1] ?? "", OTIENO, 2],
    [orders[2] ?? "", AKINYI, 1],
  ];
  await post("/api/admin/run", {
    date: today,
    stops: runs.map(([order, valet, position]) => ({ stopId: delivery(order), valetId: valetId(valet), position })),
  });

  // At the doors: Otieno takes KSh 450, then KSh 500 of a KSh 600 bill; Akinyi takes KSh 300.
  const otieno = await valetSession(browser, OTIENO);
  await deliverWithCash(otieno, delivery(orders[0] ?? ""), 450);
  await deliverWithCash(otieno, delivery(orders[1] ?? ""), 500);
  const akinyi = await valetSession(browser, AKINYI);
  await deliverWithCash(akinyi, delivery(orders[2] ?? ""), 300);

  await desk.goto("/admin");
  await desk.getByRole("tab", { name: "Money" }).click();
  await expect(desk).toHaveURL(new RegExp(`[?&]tab=money&date=${today}`));
  const cashUp = desk.getByRole("region", { name: "Cash-up" });
  const takings = cashUp.getByRole("region", { name: /^Takings/ }).locator(".takings__row");
  await expect(takings).toHaveText(["CashKSh 1,250", "TotalKSh 1,250"]);
  const otienoCash = cashUp.getByRole("region", { name: OTIENO });
  const akinyiCash = cashUp.getByRole("region", { name: AKINYI });
  // Collected, handed in, still held.
  const sums = (holder: typeof otienoCash) => holder.locator(".cash-holder__sums dd");
  await expect(sums(otienoCash)).toHaveText(["KSh 950", "KSh 0", "KSh 950"]);
  await expect(otienoCash.getByRole("row", { name: `#${orders[0]} KSh 450`, exact: false })).toBeVisible();
  await expect(otienoCash.getByRole("row", { name: `#${orders[1]} KSh 500`, exact: false })).toBeVisible();
  await expect(sums(akinyiCash)).toHaveText(["KSh 300", "KSh 0", "KSh 300"]);
  // The part payment leaves KSh 100 owing, listed with the balances.
  await expect(desk.getByRole("region", { name: "Orders owing" })).toContainText(`#${orders[1]}`);
  await expect(desk.getByRole("region", { name: "Orders owing" }).locator(".balances__total")).toHaveText(
    "Owed in all (1 order) KSh 100",
  );

  // Otieno hands in KSh 900: he still holds KSh 50.
  const handIn = otienoCash.getByRole("button", { name: `Cash handed in by ${OTIENO}` });
  await handIn.click();
  const form = desk.getByRole("group", { name: `Cash handed in by ${OTIENO}` });
  await expect(form.getByLabel("Amount counted (KSh)")).toHaveValue("950");
  await form.getByLabel("Amount counted (KSh)").fill("900");
  await form.getByLabel("Note").fill("Counted at the shop, KSh 50 short");
  await desk.getByRole("button", { name: "Record cash handed in" }).click();

  await expect(desk.getByRole("tabpanel", { name: "Money" }).getByRole("status").first()).toHaveText(
    `KSh 900 handed in by ${OTIENO}. Still holds KSh 50.`,
  );
  await expect(sums(otienoCash)).toHaveText(["KSh 950", "KSh 900", "KSh 50"]);
  await expect(otienoCash.getByRole("list", { name: `Handed in by ${OTIENO}` })).toContainText(`Handed in KSh 900 at`);
  await expect(otienoCash).toContainText("Counted at the shop, KSh 50 short");
  await expect(handIn).toBeFocused();
  await expect(sums(akinyiCash)).toHaveText(["KSh 300", "KSh 0", "KSh 300"]);
  await desk.evaluate(() => document.getElementById("tab-money")?.scrollIntoView({ block: "start" }));
  await desk.screenshot({ path: test.info().outputPath("cash-up-1280x800.png") });

  // The same day, reloaded, reads the same from the server's render.
  await desk.reload();
  await expect(sums(desk.getByRole("region", { name: OTIENO }))).toHaveText(["KSh 950", "KSh 900", "KSh 50"]);
  expect(await violations(desk)).toEqual([]);
  expect(problems).toEqual([]);
});
