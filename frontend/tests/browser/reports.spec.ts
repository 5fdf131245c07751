// The owner's Reports tab in a real browser at 390×844 and 1280×800: an order paid in cash shows
// in the money chart and its table, the period form moves to last month, the charts are SVG in the
// page the server sent, and axe finds nothing.
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

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true, baseURL: `http://127.0.0.1:${PORT}` });

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  server = await startOwnServer({ port: PORT, name: "reports", env: {}, accounts: [[OWNER.email, "owner"]] });
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
    await expect(page.getByRole("heading", { name: /^Orders: \d+, \d+ kg$/ })).toBeVisible();
    await expect(page.getByRole("img", { name: /Money in by day/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download the ledger as CSV" })).toHaveAttribute(
      "href",
      /\/admin\/exports\/ledger\.csv\?from=\d{4}-\d{2}-01&to=/,
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
