// axe-core's scan of every public page, at phone and desktop widths, closed and with the dialogs open.
import { expect, test } from "@playwright/test";
import { hydrated, violations } from "./support";

// axe is injected as an inline script, which the site's Content-Security-Policy rightly forbids.
test.use({ bypassCSP: true });

for (const width of [375, 1280]) {
  for (const path of [
    "/",
    "/pricing",
    "/order",
    "/tracking",
    "/contact",
    "/privacy",
    "/confirmation",
    "/admin/login",
    "/no-such-page",
  ]) {
    test(`${path} has no accessibility violation at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await hydrated(page);

      expect(await violations(page)).toEqual([]);
    });
  }
}

test("the open search modal has no accessibility violation", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  await page.getByRole("button", { name: "Search pricing items" }).click();
  await page.getByPlaceholder("Search for laundry items...").fill("towel");

  expect(await violations(page)).toEqual([]);
});

test("the open mobile menu has no accessibility violation", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("button", { name: "Open menu" }).click();

  expect(await violations(page)).toEqual([]);
});

test("the tracking page with a search has no accessibility violation", async ({ page }) => {
  await page.goto("/tracking?by=order&q=ABC123");
  await hydrated(page);

  expect(await violations(page)).toEqual([]);
});
