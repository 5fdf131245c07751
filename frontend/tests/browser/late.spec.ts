// A pickup nobody came for (issue 49), from the customer's side, on the demo's clock: a customer
// books a pickup on a 390×844 phone; the demo's clock moves on three days (`/dev`), past the
// window, with nothing recorded; the pickup is late at once. The customer's text says sorry and
// links their page, which never shows the passed window as to come: it says we did not come and
// asks for a new time, which the customer chooses.
//
// The demo's own server (`laundry serve --demo`, its database in a folder of its own), since only
// the demo's clock can be moved.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { hydrated, watchConsole } from "./support";

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 9;
const BASE = `http://127.0.0.1:${PORT}`;
const PHONE = { width: 390, height: 844 };

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "laundry-late-"));
  server = spawn(path.resolve("../target/debug/laundry"), ["serve", "--demo"], {
    cwd: folder,
    env: {
      ...process.env,
      LAUNDRY_ADDR: `127.0.0.1:${PORT}`,
      LAUNDRY_FRONTEND_DIR: path.resolve("dist"),
      LAUNDRY_PHOTOS_DIR: path.join(folder, "photos"),
      RUST_LOG: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await expect
    .poll(async () => (await fetch(`${BASE}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
    .toBe(200);
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

test("a pickup nobody came for is late: the customer is told and chooses a new time", async ({ browser }) => {
  test.setTimeout(90_000);
  const customer = await (await browser.newContext({ baseURL: BASE, viewport: PHONE, isMobile: true })).newPage();
  const problems = watchConsole(customer);
  await customer.goto("/order");
  await hydrated(customer);
  await customer.getByLabel("Full Name").fill("Wambui Late");
  await customer.getByLabel("Phone Number").fill("0722 400 500");
  await customer.getByLabel("Location").fill("Parklands, 3rd Avenue");
  await customer.getByLabel("Service Type").selectOption("wash-fold");
  await customer.getByLabel("Quantity (kg)").fill("3");
  await customer.getByLabel("Pickup Day and Window").selectOption({ index: 1 });
  await customer.getByRole("button", { name: "Place Order" }).click();
  await expect(customer).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
  const reference = new URL(customer.url()).searchParams.get("ref") ?? "";
  await customer.getByRole("link", { name: "Track this order" }).click();
  const ownPage = customer.url();

  // Three days on, nobody came and nobody recorded anything.
  const desk = await (await browser.newContext({ baseURL: BASE })).newPage();
  await desk.goto("/dev");
  await desk.getByLabel("Move on by").selectOption("72");
  await desk.getByRole("button", { name: "Move the clock on" }).click();
  await expect(desk.getByRole("status")).toContainText("stops whose window passed are late");

  // The outbox sends it in a moment: the texts page shows what the stand-in received.
  const text = desk.locator("article", { hasText: `sorry, we did not come for order ${reference} in its window` });
  await expect
    .poll(
      async () => {
        await desk.goto("/dev/texts");
        return text.count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(text).toContainText("Choose a new pickup time:");

  await customer.goto(ownPage);
  await expect(customer.getByText(/^Sorry, we did not come to collect your laundry on /)).toBeVisible();
  await expect(customer.getByText(/You are next|before you, expected/)).toHaveCount(0);
  await expect(customer.getByRole("heading", { name: "Choose a New Pickup Time" })).toBeVisible();
  await customer.screenshot({ path: test.info().outputPath("late-pickup-390x844.png"), fullPage: true });

  // A new window: booked again, with its delivery.
  await customer.getByLabel("New pickup window").selectOption({ index: 1 });
  await customer.getByRole("button", { name: "Move My Pickup" }).click();
  await expect(customer.getByText(/^Sorry, we did not come/)).toHaveCount(0);
  await expect(customer.getByRole("heading", { name: "Choose a New Pickup Time" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
