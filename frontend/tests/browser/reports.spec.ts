// The owner's Reports tab in a real browser at 390×844 and 1280×800: every section with its chart,
// the period form moves to last month, the charts are SVG in the page the server sent, and axe
// finds nothing; the month's summary prints on one A4 sheet; the owner shares a section with staff
// without JavaScript, and staff see that section alone.
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import {
  OWN_SERVER_PASSWORD as PASSWORD,
  hydrated,
  placeOrder,
  signIn,
  startOwnServer,
  violations,
  watchConsole,
} from "./support";

// The reports are the owner's: a server of this file's own, with an owner's account.
const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 11;
const OWNER = { email: "owner@example.com", password: PASSWORD };
const DESK = { email: "desk@example.com", password: PASSWORD };

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true, baseURL: `http://127.0.0.1:${PORT}` });

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  server = await startOwnServer({
    port: PORT,
    name: "reports",
    env: {},
    accounts: [
      [OWNER.email, "owner"],
      [DESK.email, "staff"],
    ],
  });
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

for (const [width, height] of [
  [390, 844],
  [1280, 800],
] as const) {
  test(`the owner reads this month's money and orders, and picks last month, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const problems = watchConsole(page);
    await placeOrder(page, {
      customer: "Wanjiru Reports",
      phone: "0712000999",
      location: "Kilimani",
      service: "wash-fold",
      kg: "2",
    });
    await signIn(page, { account: OWNER });
    await page.getByRole("tab", { name: "Reports" }).click();
    await expect(page).toHaveURL(/tab=reports/);
    await hydrated(page);

    await expect(page.getByRole("heading", { name: /^Money in: KSh/ })).toBeVisible();
    // Store credit is not money: its lines stand apart, under a heading of their own.
    await expect(page.getByRole("heading", { name: "Store credit", exact: true })).toBeVisible();
    await expect(page.getByText("Owed to customers at the end")).toBeVisible();
    await expect(page.getByRole("heading", { name: /^Orders: \d+, \d+ kg$/ })).toBeVisible();
    await expect(page.getByRole("img", { name: /Money in by day/ })).toBeVisible();
    for (const heading of [/^Turnaround: /, /^Customers: \d+/, /^Cash-up by day: /, /^Owed after delivery: /]) {
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    }
    await expect(page.getByRole("img", { name: /New and returning customers by week/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "the ledger" })).toHaveAttribute(
      "href",
      /\/admin\/exports\/ledger\.csv\?from=\d{4}-\d{2}-01&to=/,
    );
    await expect(page.getByRole("link", { name: "orders", exact: true })).toHaveAttribute(
      "href",
      /\/admin\/exports\/orders\.csv\?from=/,
    );
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`reports-${width}.png`), fullPage: true });

    await page.getByLabel("Period").selectOption("last-month");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/period=last-month/);
    await expect(page.getByLabel("Period")).toHaveValue("last-month");
    expect(problems).toEqual([]);
  });
}

test("the charts are in the page the server sends: they read without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: `http://127.0.0.1:${PORT}` });
  const page = await context.newPage();
  await signIn(page, { account: OWNER, hydrate: false });
  await page.goto("/admin?tab=reports&period=today");
  await expect(page.getByRole("img", { name: /Orders by day/ })).toBeVisible();
  await expect(page.locator("svg.chart line.chart__axis").first()).toBeAttached();
  await context.close();
});

test("the month's summary prints on one A4 sheet, and axe finds nothing", async ({ page }) => {
  const problems = watchConsole(page);
  await signIn(page, { account: OWNER });
  await page.goto("/admin?tab=reports");
  await page.getByRole("link", { name: "the month's summary for the accountant" }).click();
  await expect(page).toHaveURL(/\/admin\/exports\/summary\?month=\d{4}-\d{2}$/);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: /^Summary of \w+ \d{4}$/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Money received" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath("summary-1280.png"), fullPage: true });
  const pdf = await page.pdf({ format: "A4" });
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length).toBe(1);
  await page.getByRole("link", { name: "The month before" }).click();
  await expect(page).toHaveURL(/month=\d{4}-\d{2}$/);
  expect(problems).toEqual([]);
});

test("without JavaScript the owner shares the customers with staff, who see them alone", async ({ browser }) => {
  const owner = await browser.newContext({ javaScriptEnabled: false, baseURL: `http://127.0.0.1:${PORT}` });
  const page = await owner.newPage();
  await signIn(page, { account: OWNER, hydrate: false });
  await page.goto("/admin?tab=reports&period=week");
  await page.getByRole("checkbox", { name: "Customers" }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/tab=reports&period=week/);
  await expect(page.getByRole("checkbox", { name: "Customers" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Money in" })).not.toBeChecked();
  await owner.close();

  const desk = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  const staffPage = await desk.newPage();
  await signIn(staffPage, { account: DESK });
  await staffPage.getByRole("tab", { name: "Reports" }).click();
  await expect(staffPage).toHaveURL(/tab=reports/);
  await expect(staffPage.getByRole("heading", { name: /^Customers: \d+/ })).toBeVisible();
  await expect(staffPage.getByRole("heading", { name: /^Money in: / })).toHaveCount(0);
  await expect(staffPage.getByRole("heading", { name: "What staff see" })).toHaveCount(0);
  await expect(staffPage.getByText("Download as CSV")).toHaveCount(0);
  await desk.close();
});
