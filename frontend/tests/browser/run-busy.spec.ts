// A busy day on the day board, in a real browser at 1280×800: 60 pickups over two windows are shown
// a window at a time. Staff give stops of both windows to a valet; the places of the window not
// shown are kept, leaving a page with changes not saved asks first, and the address follows the
// window shown.
//
// This file starts a server of its own with two windows of room enough for 30 pickups each, and
// books them two days ahead (clear of any cut-off).
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { OWN_SERVER_PASSWORD as PASSWORD, signIn, startOwnServer, watchConsole } from "./support";

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 9;
const BASE = `http://127.0.0.1:${PORT}`;
const STAFF = "dispatch@example.com";
const VALET = "otieno@example.com";
const PER_WINDOW = 30;
/** Two days ahead, Nairobi (UTC+3 all year). */
const DAY = new Date(Date.now() + 3 * 3600_000 + 2 * 86_400_000).toISOString().slice(0, 10);

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  server = await startOwnServer({
    port: PORT,
    name: "busy",
    env: {
      LAUNDRY_PICKUP_WINDOWS: "19:00-20:00,20:00-21:00",
      LAUNDRY_WINDOW_CAPACITY: String(PER_WINDOW),
      LAUNDRY_SUBMISSIONS_PER_HOUR: "1000",
    },
    accounts: [
      [STAFF, "staff"],
      [VALET, "valet"],
    ],
  });
  for (const window of ["19:00", "20:00"]) {
    for (let n = 0; n < PER_WINDOW; n++) {
      const booked = await fetch(`${BASE}/api/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          customerName: "Amina Wanjiru",
          phone: `0712 ${window.slice(0, 2)}0 ${String(n).padStart(3, "0")}`,
          location: "Kilimani",
          serviceType: "wash-fold",
          quantity: 3,
          paymentMethod: "pay-delivery",
          pickup: `${DAY}T${window}`,
        }),
      });
      expect(booked.status, await booked.text()).toBe(201);
    }
  }
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

test("a busy day's board is shown a window at a time and keeps every run's places", async ({ browser }) => {
  test.setTimeout(90_000);
  const desk = await (await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } })).newPage();
  const errors = watchConsole(desk);
  await signIn(desk, { account: { email: STAFF, password: PASSWORD }, from: "/admin/login" });
  await desk.goto(`/admin?tab=run&date=${DAY}`);
  await expect(desk.getByText("A busy day: one window at a time.")).toBeVisible();
  await expect(desk.getByRole("heading", { level: 3, name: /60 stops · 60 not in a run/ })).toBeVisible();
  const windows = desk.getByRole("navigation", { name: "Windows of the day" });
  await expect(windows.getByRole("link", { name: "19:00-20:00 · 30 pickups" })).toHaveAttribute("aria-current", "page");
  await expect(desk.locator("li.run-stop")).toHaveCount(PER_WINDOW);

  // Two 19:00 stops to the valet, saved.
  const stops = desk.locator("li.run-stop");
  await stops.nth(0).getByLabel("Valet").selectOption({ label: VALET });
  await stops.nth(1).getByLabel("Valet").selectOption({ label: VALET });
  await desk.getByRole("button", { name: "Save the runs" }).click();
  await expect(desk.getByText("Saved.", { exact: true })).toBeVisible();

  // The 20:00 window: its stops, the address following it; a stop given there joins the run third.
  await windows.getByRole("link", { name: "20:00-21:00 · 30 pickups" }).click();
  await expect(desk).toHaveURL(/window=20%3A00/);
  await expect(windows.getByRole("link", { name: "20:00-21:00 · 30 pickups" })).toHaveAttribute("aria-current", "page");
  await expect(desk.locator("li.run-stop")).toHaveCount(PER_WINDOW);
  const later = desk.locator("li.run-stop").nth(4);
  const reference = ((await later.locator("strong").first().textContent()) ?? "").replace("#", "");
  await later.getByLabel("Valet").selectOption({ label: VALET });
  await expect(later.getByText("Stop 3 of the run")).toBeVisible();
  const run = desk.locator(".valet-run", { hasText: VALET });
  await expect(run.getByText("2 more stops in other windows or parts of the day.")).toBeVisible();

  // Leaving with the change not saved asks first; staying keeps it.
  desk.once("dialog", (dialog) => void dialog.dismiss());
  await windows.getByRole("link", { name: /^19:00-20:00/ }).click();
  await expect(desk).toHaveURL(/window=20%3A00/);
  await expect(desk.getByText("Changes not saved yet.")).toBeVisible();
  await desk.getByRole("button", { name: "Save the runs" }).click();
  await expect(desk.getByText("Saved.", { exact: true })).toBeVisible();
  await expect(desk.getByRole("heading", { level: 3, name: /60 stops · 57 not in a run/ })).toBeVisible();

  // As saved, after a reload of the address: the 20:00 window, the stop third in the run.
  await desk.reload();
  await expect(desk.locator("li.run-stop", { hasText: `#${reference}` }).getByText("Stop 3 of the run")).toBeVisible();
  await windows.getByRole("link", { name: /^19:00-20:00/ }).click();
  await expect(desk.locator("li.run-stop").nth(1).getByText("Stop 2 of the run")).toBeVisible();
  await desk.screenshot({ path: "test-results/run-busy-1280.png" });
  expect(errors).toEqual([]);
});
