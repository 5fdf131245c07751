// The tracking page on a phone (390×844): an order tracked by its ID shows the timeline its status
// history gives, an order tracked by phone number keeps the number out of the address bar, with
// JavaScript and without.
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { hydrated, placeOrder, signIn, watchConsole } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

/** This file's customer: a number no other browser test orders with. */
const PHONE = "0733 445 566";
/** 'Mon 23 Nov, 19:40' and 'Thu 26 Nov', as the timeline writes times and days. */
const DAY_TIME = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}$/;
const DAY = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}$/;

function placeOrderByPhone(page: Page): Promise<string> {
  return placeOrder(page, {
    customer: "Zawadi Kamau",
    phone: PHONE,
    location: "Kileleshwa",
    service: "bedding",
    kg: "2",
  });
}

/** Moves an order on as staff do: signed in, in a browser context of its own, through the staff API. */
async function moveOrder(browser: Browser, orderId: string, statuses: string[]) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const staff = await context.newPage();
  const csrf = await signIn(staff, { from: "/admin/login", hydrate: false });
  const found = (await (await staff.request.get(`/api/admin/orders?q=${orderId}`)).json()) as {
    items: { id: string }[];
  };
  const id = found.items[0]?.id ?? orderId;
  for (const status of statuses) {
    const changed = await staff.request.post(`/api/admin/orders/${id}/status`, {
      data: { status },
      headers: { "X-CSRF-Token": csrf },
    });
    expect(changed.status()).toBe(200);
  }
  await context.close();
}

/** The value of a timeline line of the card. */
function timelineValue(card: Locator, term: string): Locator {
  return card
    .locator(".tracked-order__timeline div", { has: card.page().getByText(term, { exact: true }) })
    .locator("dd");
}

/** Searches as a customer does: chooses what to search by, types, presses Track Order. */
async function track(page: Page, by: "Phone Number" | "Order ID", value: string) {
  await page.getByRole("radio", { name: by }).check();
  await page.getByRole("textbox", { name: by }).fill(value);
  await page.getByRole("button", { name: "Track Order" }).click();
}

test("an order tracked by its ID shows the pickup, estimate and progress its history gives", async ({
  page,
  browser,
}) => {
  const orderId = await placeOrderByPhone(page);
  await moveOrder(browser, orderId, ["picked-up", "in-progress"]);
  const problems = watchConsole(page);
  await page.goto("/tracking");
  await hydrated(page);

  await track(page, "Order ID", orderId);

  const card = page.getByRole("article", { name: `Order #${orderId}` });
  await expect(card.locator(".badge")).toHaveText("In Progress");
  await expect(card.locator(".progress__step.is-done")).toHaveCount(3);
  await expect(card.locator('[aria-current="step"]')).toContainText("In Progress");
  await expect(timelineValue(card, "Pickup Date")).toHaveText(DAY_TIME);
  await expect(timelineValue(card, "Estimated Completion")).toHaveText(DAY);
  await expect(timelineValue(card, "Delivery Date")).toHaveText("Not yet delivered");
  await expect(page).toHaveURL(`/tracking?by=order&q=${orderId}`);
  await card.getByRole("heading", { name: "Timeline" }).scrollIntoViewIfNeeded();
  await expect(card.getByRole("heading", { name: "Timeline" })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(problems).toEqual([]);
});

test("an order tracked by phone number shows its timeline and keeps the number out of the address bar", async ({
  page,
}) => {
  const orderId = await placeOrderByPhone(page);
  await page.goto("/tracking");
  await hydrated(page);

  await track(page, "Phone Number", PHONE);

  const card = page.getByRole("article", { name: `Order #${orderId}` });
  await expect(card.locator(".badge")).toHaveText("Pending");
  await expect(timelineValue(card, "Pickup Date")).toHaveText("Awaiting pickup");
  await expect(timelineValue(card, "Estimated Completion")).toHaveText("3-4 days after pickup");
  await expect(timelineValue(card, "Order placed")).toHaveText(DAY_TIME);
  await expect(page).toHaveURL("/tracking");
  expect(page.url()).not.toContain("445");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form posts a phone look-up and the result shows with the number out of the address bar", async ({
    page,
  }) => {
    await page.goto("/tracking");

    await page.getByRole("textbox", { name: "Phone Number" }).fill(PHONE);
    await page.getByRole("button", { name: "Track Order" }).click();

    await expect(page.getByRole("heading", { name: /^Order #/ }).first()).toBeVisible();
    await expect(page.getByText("Awaiting pickup").first()).toBeVisible();
    await expect(page).toHaveURL("/tracking");
  });
});
