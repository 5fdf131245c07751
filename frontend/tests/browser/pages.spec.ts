// The public pages in a real browser: server-rendered, hydrated without complaint, and interactive.
import { expect, test } from "@playwright/test";
import { hydrated, placeOrder, watchConsole } from "./support";

test("pricing hydrates with no console error or hydration warning", async ({ page }) => {
  const problems = watchConsole(page);

  await page.goto("/pricing");
  await hydrated(page);

  await expect(page.locator(".price-card")).toHaveCount(34);
  await expect(page.getByRole("link", { name: "Pricing", exact: true }).first()).toHaveClass(/active/);
  expect(problems).toEqual([]);
});

test("the search modal finds shirts with their prices", async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto("/pricing");
  await hydrated(page);

  await page.getByRole("button", { name: "Search pricing items" }).click();
  const dialog = page.getByRole("dialog", { name: "Search Pricing Items" });
  await expect(dialog).toBeVisible();
  await dialog.getByPlaceholder("Search for laundry items...").fill("shirt");

  await expect(dialog.getByText("Search Results (2)")).toBeVisible();
  await expect(dialog.getByRole("link", { name: /^Shirt\s*KSh 200$/ })).toBeVisible();
  await expect(dialog.getByRole("link", { name: /^T-shirt\s*KSh 150$/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a search with no match says so and suggests what to try", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);

  await page.getByRole("button", { name: "Search pricing items" }).click();
  const dialog = page.getByRole("dialog", { name: "Search Pricing Items" });
  await dialog.getByPlaceholder("Search for laundry items...").fill("zzz");

  await expect(dialog.getByText('No items found for "zzz"')).toBeVisible();
  await expect(dialog.getByText("Try searching for: shirt, dress, towel, etc.")).toBeVisible();
  await expect(dialog.getByText(/Search Results/)).toHaveCount(0);
});

test("closing the search clears the query", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Search pricing items" });

  await toggle.click();
  await page.getByPlaceholder("Search for laundry items...").fill("towel");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await toggle.click();

  await expect(page.getByPlaceholder("Search for laundry items...")).toHaveValue("");
});

test("the mobile menu opens, and Search Pricing closes it and opens the search", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/pricing");
  await hydrated(page);

  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("link", { name: "Contact" })).toBeVisible();
  await menu.getByRole("button", { name: "Search Pricing" }).click();

  await expect(page.getByRole("dialog", { name: "Menu" })).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Search Pricing Items" })).toBeVisible();
  await expect(page.getByPlaceholder("Search for laundry items...")).toBeFocused();
});

for (const path of ["/", "/order", "/tracking", "/contact", "/confirmation"]) {
  test(`${path} hydrates with no console error`, async ({ page }) => {
    const problems = watchConsole(page);

    await page.goto(path);
    await hydrated(page);

    expect(problems).toEqual([]);
  });
}

test("the order summary follows the chosen service and quantity", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);
  const summary = page.getByRole("complementary", { name: "Order Summary" });
  await expect(summary).toContainText("Select a service to see pricing");

  await page.getByLabel("Service Type").selectOption("dry-cleaning");
  await page.getByLabel("Quantity (kg)").fill("3");
  await page.getByLabel("Phone Number").fill("0712 345 678");

  await expect(summary).toContainText("Dry Cleaning");
  await expect(summary).toContainText("3 kg");
  await expect(summary).toContainText("KSh 500");
  await expect(summary).toContainText("KSh 1,500");
  await expect(summary).toContainText("Reference: 0712 345 678");
  await page.getByLabel("Quantity (kg)").fill("0");
  await expect(summary).toContainText("Enter whole kilograms from 1 to 500");
});

test("a testimonial photo that fails to load shows the fallback avatar", async ({ page }) => {
  await page.route("**/assets/avatar-otieno-*.svg", (route) => route.abort());
  await page.goto("/");
  await hydrated(page);

  await expect(page.getByTestId("avatar-fallback")).toHaveText("BO");
  await expect(page.getByTestId("avatar-fallback")).toHaveCount(1);
});

test("the active header link follows the page", async ({ page }) => {
  await page.goto("/contact");
  const nav = page.getByRole("navigation", { name: "Main" });

  await expect(nav.getByRole("link", { name: "Contact" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", "page");
});

test("a link in the mobile menu closes it", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/pricing#item-shirt");
  await hydrated(page);
  await page.getByRole("button", { name: "Open menu" }).click();

  await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Pricing" }).click();

  await expect(page.getByRole("dialog", { name: "Menu" })).toHaveCount(0);
});

test("focus stays inside the open search modal and returns to the toggle on Escape", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Search pricing items" });
  await toggle.click();
  await page.getByPlaceholder("Search for laundry items...").fill("bed");

  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    const inside = await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
    expect(inside, `focus left the dialog after ${i + 1} Tab presses`).toBe(true);
  }
  await page.keyboard.press("Escape");

  await expect(toggle).toBeFocused();
});

test("an order placed through the form lands on the confirmation and can be tracked", async ({ page }) => {
  const problems = watchConsole(page);
  const order = {
    customer: "Wanjiru Kamau",
    phone: "0712 345 678",
    location: "Kilimani, Argwings Kodhek Rd",
    service: "wash-fold",
    kg: "4",
  };

  const reference = await placeOrder(page, order);

  await expect(page.getByRole("heading", { name: "Order Confirmed!" })).toBeVisible();
  await expect(page.getByText(reference).first()).toBeVisible();
  await expect(page.getByText("Till Number: 3552248")).toBeVisible();
  await expect(page.getByText("Amount: KSh 600")).toBeVisible();
  await expect(page.getByText("Reference: your phone number (+254 7** *** 678)")).toBeVisible();

  await page.goto("/tracking");
  await hydrated(page);
  await page.getByRole("radio", { name: "Order ID" }).check();
  await page.getByRole("textbox", { name: "Order ID" }).fill(reference);
  await page.getByRole("button", { name: "Track Order" }).click();

  const card = page.getByRole("article", { name: `Order #${reference}` });
  await expect(card).toBeVisible();
  await expect(card.getByText("Wanjiru", { exact: true })).toBeVisible();
  await expect(card.getByText("Pending", { exact: true })).toBeVisible();
  await expect(card.getByText("KSh 600")).toBeVisible();
  expect(problems).toEqual([]);
});

test("the order form shows the server's message next to a wrong phone number", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);

  await page.getByLabel("Full Name").fill("Wanjiru Kamau");
  await page.getByLabel("Phone Number").fill("12345");
  await page.getByLabel("Location").fill("Kilimani");
  await page.getByLabel("Service Type").selectOption("ironing");
  await page.getByLabel("Quantity (kg)").fill("2");
  await page.getByRole("button", { name: "Place Order" }).click();

  await expect(
    page.getByText("Please enter a Kenyan phone number, like 0712 345 678 or +254 712 345 678."),
  ).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/order$/);
});

test("a contact message is sent, thanked for, and the form is cleared", async ({ page }) => {
  await page.goto("/contact");
  await hydrated(page);

  await page.getByLabel("Full Name").fill("Brian Otieno");
  await page.getByLabel("Email Address").fill("brian@example.com");
  await page.getByLabel("Subject").fill("Curtains");
  await page.getByLabel("Message").fill("Do you take sheers?");
  await page.getByRole("button", { name: "Send Message" }).click();

  await expect(page.getByText("Thank you for your message! We will get back to you soon.")).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("");
});

/** Whether the element is wholly inside the viewport and has the focus. */
async function inViewAndFocused(page: import("@playwright/test").Page, selector: string) {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const inView = box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
    return { inView, focused: document.activeElement === element };
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a failed order's message is brought into view and focused", async ({ page }) => {
    await page.route("**/api/orders", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"busy"}' }),
    );
    await page.goto("/order");
    await hydrated(page);
    await page.getByLabel("Full Name").fill("Amina Wanjiru");
    await page.getByLabel("Phone Number").fill("0712 345 678");
    await page.getByLabel("Location").fill("Kilimani");
    await page.getByLabel("Service Type").selectOption("ironing");
    await page.getByLabel("Quantity (kg)").fill("3");
    await page.getByRole("button", { name: "Place Order" }).click();

    const alert = page.getByRole("alert");
    await expect(alert).toHaveText("There was an error saving your order. Please try again.");
    expect(await inViewAndFocused(page, ".form .alert")).toEqual({ inView: true, focused: true });
  });

  test("the contact form's thank-you is brought into view and focused", async ({ page }) => {
    await page.goto("/contact");
    await hydrated(page);
    await page.getByLabel("Full Name").fill("Brian Otieno");
    await page.getByLabel("Email Address").fill("brian@example.com");
    await page.getByLabel("Subject").fill("Duvets");
    await page.getByLabel("Message").fill("Do you clean king-size duvets?");
    await page.getByRole("button", { name: "Send Message" }).click();

    await expect(page.getByText("Thank you for your message! We will get back to you soon.")).toBeVisible();
    expect(await inViewAndFocused(page, ".form .alert")).toEqual({ inView: true, focused: true });
  });

  test("the confirmation links to the order's tracking, and the footer to tracking", async ({ page }) => {
    const reference = await placeOrder(page, {
      customer: "Amina Wanjiru",
      phone: "0712 345 678",
      location: "Kilimani",
      service: "ironing",
      kg: "2",
    });

    await expect(page.getByRole("link", { name: "Track Your Order", exact: true })).toHaveAttribute(
      "href",
      "/tracking",
    );
    await page.getByRole("link", { name: "track your order", exact: true }).click();

    await expect(page).toHaveURL(`/tracking?by=order&q=${reference}`);
    await expect(page.getByRole("heading", { name: `Order #${reference}` })).toBeVisible();
  });
});
