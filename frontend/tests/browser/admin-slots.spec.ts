// Pickup slots on the staff dashboard in a real browser: a booking waits in "Awaiting
// confirmation" until staff confirm it or move it to another window, and the "Day's run" tab shows
// the day's stops by window, on a phone without sideways scrolling and without accessibility
// violations.
import { expect, type Page, test } from "@playwright/test";
import { signIn, violations, watchConsole } from "./support";

/** Nairobi's date `days` from today, YYYY-MM-DD. */
function nairobiDay(days: number): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** Places an order with a pickup slot through the API; returns its order ID. */
async function book(page: Page, customer: string, pickup: string): Promise<string> {
  const response = await page.request.post("/api/orders", {
    data: {
      customerName: customer,
      phone: "0711 222 333",
      location: "Lavington, James Gichuru Rd",
      landmark: "Next to the Shell station",
      serviceType: "wash-fold",
      quantity: 4,
      paymentMethod: "pay-delivery",
      pickup,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function awaiting(page: Page) {
  return page.getByRole("region", { name: "Awaiting confirmation" });
}

test("staff confirm one booked slot and move another, and both leave the list", async ({ page }) => {
  const problems = watchConsole(page);
  const tomorrow = nairobiDay(1);
  const confirmed = await book(page, "Njeri Kamau", `${tomorrow}T21:00`);
  const moved = await book(page, "Kevin Mutua", `${tomorrow}T21:00`);
  await signIn(page);
  const first = awaiting(page)
    .getByRole("listitem")
    .filter({ hasText: `#${confirmed}` });
  const second = awaiting(page)
    .getByRole("listitem")
    .filter({ hasText: `#${moved}` });
  await expect(first).toContainText("Booked just now");
  await expect(first).toContainText("21:00-22:00");

  await first.getByRole("button", { name: "Confirm" }).click();

  await expect(first).toHaveCount(0);
  await expect(awaiting(page)).toContainText(`Order ${confirmed}: pickup confirmed for`);

  await second.getByRole("button", { name: "Move" }).click();
  const target = `${nairobiDay(2)}T20:00`;
  await second.getByLabel(`Move #${moved} to`).selectOption(target);
  await second.getByRole("button", { name: "Move and confirm" }).click();

  await expect(second).toHaveCount(0);
  await expect(awaiting(page)).toContainText(`Order ${moved}: pickup moved to`);
  expect(problems).toEqual([]);
});

test("the day's run lists a day's stops by window, on a phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const day = nairobiDay(3);
  const reference = await book(page, "Halima Yusuf", `${day}T20:00`);
  await signIn(page);

  await page.getByRole("tab", { name: /^Day's run/ }).click();
  await expect(page).toHaveURL(/[?&]tab=run/);
  await page.getByLabel("Day", { exact: true }).fill(day);
  await page.getByRole("button", { name: "Show" }).click();

  await expect(page).toHaveURL(new RegExp(`date=${day}`));
  const evening = page.getByRole("region", { name: /^20:00-21:00/ });
  const stop = evening.getByRole("listitem").filter({ hasText: `#${reference}` });
  await expect(stop).toContainText("Halima Yusuf");
  await expect(stop).toContainText("Next to the Shell station");
  await expect(stop).toContainText("Not confirmed");
  await expect(stop.getByLabel("Valet")).toHaveValue("");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath("run-390x844.png"), fullPage: true });

  // The same board without JavaScript's help: the address is the day's page.
  await page.reload();
  await expect(page.getByRole("region", { name: /^20:00-21:00/ })).toContainText(`#${reference}`);
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });
  test("the awaiting panel and the day's run have no accessibility violation", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const reference = await book(page, "Faith Akinyi", `${nairobiDay(1)}T20:00`);
    await signIn(page);
    const row = awaiting(page)
      .getByRole("listitem")
      .filter({ hasText: `#${reference}` });
    await row.getByRole("button", { name: "Move" }).click();
    expect(await violations(page)).toEqual([]);
    await awaiting(page).screenshot({ path: test.info().outputPath("awaiting-375.png") });

    await page.getByRole("tab", { name: /^Day's run/ }).click();
    await expect(page.getByRole("heading", { name: /stops?/, level: 3 }).first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});
