// The site's shell on phones and desktops (issue 14): the menu works with JavaScript off, the overlay
// still behaves as the spec says with it on, nothing overflows a 320 px screen, tracking is within
// reach, and the privacy notice renders.
import { expect, test, type Page } from "@playwright/test";
import { hydrated, violations, watchConsole } from "./support";

const NAV = [
  ["Home", "/"],
  ["Pricing", "/pricing"],
  ["Order", "/order"],
  ["Contact", "/contact"],
  ["Track Order", "/tracking"],
] as const;

const PHONE = { width: 390, height: 844 };

/** How far the page reaches past the right edge of the window, in CSS pixels. */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test("the menu opens and every nav link in it is visible and leads to its page", async ({ page }) => {
    await page.goto("/");
    const menu = page.locator(".menu-disclosure");
    const links = menu.getByRole("navigation", { name: "Mobile" });
    await expect(links).toBeHidden();

    await menu.locator("summary").click();

    for (const [label, href] of NAV) {
      const link = links.getByRole("link", { name: label, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toBeInViewport();
      await expect(link).toHaveAttribute("href", href);
    }
    await expect(links.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
    await links.getByRole("link", { name: "Track Order", exact: true }).click();
    await expect(page).toHaveURL(/\/tracking$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Track Your Order");
  });

  test("the menu closes again from its own button", async ({ page }) => {
    await page.goto("/pricing");
    const summary = page.locator(".menu-disclosure summary");

    await summary.click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await summary.click();

    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });

  test("the search button leads to the price list", async ({ page }) => {
    await page.goto("/");

    await page.getByRole("link", { name: "Search pricing items" }).click();

    await expect(page).toHaveURL(/\/pricing#price-list-title$/);
    await expect(page.getByRole("heading", { name: "Price List" })).toBeInViewport();
  });
});

test.describe("before the page's scripts have loaded", () => {
  test.use({ viewport: PHONE, bypassCSP: true });

  test("the open menu has no accessibility violation", async ({ page }) => {
    // The client modules never arrive, as on a connection that has not fetched them yet.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/");

    await page.locator(".menu-disclosure summary").click();

    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});

test.describe("on a phone with JavaScript", () => {
  test.use({ viewport: PHONE });

  test("the menu is the spec's overlay: five links, Search Pricing, chat, a close button", async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto("/");
    await hydrated(page);
    await expect(page.locator(".menu-disclosure")).toHaveCount(0);

    await page.getByRole("button", { name: "Open menu" }).click();

    const menu = page.getByRole("dialog", { name: "Menu" });
    for (const [label, href] of NAV) {
      await expect(menu.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
    await expect(menu.getByRole("link", { name: "Home", exact: true })).toHaveClass(/active/);
    await expect(menu.getByRole("button", { name: "Search Pricing" })).toBeVisible();
    await expect(menu.getByRole("link", { name: /Chat on WhatsApp/ })).toHaveAttribute("target", "_blank");
    await menu.getByRole("button", { name: "Close menu" }).click();
    await expect(page.getByRole("dialog", { name: "Menu" })).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test("choosing Track Order in the overlay closes it and opens tracking", async ({ page }) => {
    await page.goto("/pricing");
    await hydrated(page);

    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Track Order" }).click();

    await expect(page).toHaveURL(/\/tracking$/);
    await expect(page.getByRole("dialog", { name: "Menu" })).toHaveCount(0);
  });
});

for (const path of ["/", "/order", "/pricing"]) {
  test(`${path} does not overflow a 320 px screen, before and after hydration`, async ({ browser }) => {
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 320, height: 640 } });
      const page = await context.newPage();
      await page.goto(path);
      if (javaScriptEnabled) await hydrated(page);

      expect(await overflow(page), `JavaScript ${javaScriptEnabled ? "on" : "off"}`).toBeLessThanOrEqual(0);
      await expect(page.locator(".site-header__brand")).toBeInViewport({ ratio: 1 });
      await context.close();
    }
  });
}

test("the desktop header links to tracking and marks it active there", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await hydrated(page);
  const nav = page.getByRole("navigation", { name: "Main" });

  await nav.getByRole("link", { name: "Track Order" }).click();

  await expect(page).toHaveURL(/\/tracking$/);
  await expect(nav.getByRole("link", { name: "Track Order" })).toHaveClass(/active/);
  await expect(nav.getByRole("link", { name: "Home" })).not.toHaveClass(/active/);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
});

test("the home page links to tracking from the hero and from what to expect", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  const main = page.getByRole("main");

  await expect(main.getByRole("link", { name: "Track your order" })).toBeInViewport();
  await expect(main.getByRole("link", { name: "Track Order" })).toHaveAttribute("href", "/tracking");
  await main.getByRole("link", { name: "Track your order" }).click();

  await expect(page).toHaveURL(/\/tracking$/);
});

test("the home page promises no pickup by text message", async ({ page }) => {
  await page.goto("/");

  await expect(page.getByRole("main")).not.toContainText(/text a single letter|we text you/i);
  await expect(page.getByRole("main")).toContainText("call or WhatsApp us");
});

test("the privacy notice is linked from the footer and says whom to ask", async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto("/");

  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy notice" }).click();
  await hydrated(page);

  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Notice");
  await expect(page.getByRole("main").getByRole("link", { name: "sales@example.com" })).toHaveAttribute(
    "href",
    "mailto:sales@example.com",
  );
  await expect(page.getByRole("main")).toContainText("Office of the Data Protection Commissioner");
  expect(problems).toEqual([]);
});
