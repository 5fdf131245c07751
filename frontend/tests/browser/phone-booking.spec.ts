// Bookings by phone on the staff dashboard in a real browser: staff open "New booking", type a
// returning customer's number, and their name, location and landmark fill in from their last order,
// which is listed; staff choose a service, kg and window and place the booking, which is then in the
// orders list with its source. The panel is usable on a phone too.
import { expect, type Page, test } from "@playwright/test";
import { signIn, violations, watchConsole } from "./support";

/** A mobile number no other test uses: `07XX XXX XXX`. */
function freshPhone(): string {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
  return `07${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5)}`;
}

/** The customer's earlier order, placed through the public API; its order ID. */
async function earlierOrder(page: Page, phone: string): Promise<string> {
  const response = await page.request.post("/api/orders", {
    data: {
      customerName: "Achieng Otieno",
      phone,
      location: "Kileleshwa, Othaya Rd",
      landmark: "Blue gate opposite the church",
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ bypassCSP: true });

function panel(page: Page) {
  return page.getByRole("region", { name: "Take a booking" });
}

/** Chooses the first pickup window with places left. */
async function chooseWindow(page: Page) {
  const select = panel(page).getByLabel("Pickup Day and Window");
  const value = await select.evaluate(
    (element) =>
      Array.from((element as HTMLSelectElement).options).find((option) => option.value && !option.disabled)?.value ??
      "",
  );
  expect(value).not.toBe("");
  await select.selectOption(value);
}

test("staff take a phone booking for a returning customer whose details fill in from the number", async ({ page }) => {
  const problems = watchConsole(page);
  const phone = freshPhone();
  const earlier = await earlierOrder(page, phone);
  await signIn(page);

  await page.getByRole("button", { name: "New booking" }).click();
  const booking = panel(page);
  await expect(booking.getByRole("radio", { name: "Phone" })).toBeChecked();
  await booking.getByLabel("Phone Number").fill(phone);

  await expect(booking.getByLabel("Full Name")).toHaveValue("Achieng Otieno");
  await expect(booking.getByLabel("Location")).toHaveValue("Kileleshwa, Othaya Rd");
  await expect(booking.getByLabel("Landmark")).toHaveValue("Blue gate opposite the church");
  await expect(booking.getByRole("button", { name: `Details of order ${earlier}` })).toBeVisible();
  await expect(booking).toContainText("Wash & Fold 3 kg");
  expect(await violations(page)).toEqual([]);

  await booking.getByLabel("Service Type").selectOption("dry-cleaning");
  await booking.getByLabel("Quantity (kg)").fill("2");
  await chooseWindow(page);
  await booking.getByLabel("Pay on Delivery").check();
  await booking.getByRole("button", { name: "Place booking" }).click();

  const booked = booking.getByRole("status").filter({ hasText: /^Order [A-Z0-9]{8} booked for / });
  await expect(booked).toBeVisible();
  const id = /Order ([A-Z0-9]{8})/.exec((await booked.textContent()) ?? "")?.[1] ?? "";
  expect(id).not.toBe(earlier);
  const row = page.locator("#panel-orders tbody tr").filter({ hasText: id });
  await expect(row).toContainText("Achieng Otieno");
  await expect(row.locator(".orders-table__tag")).toHaveText("Phone");
  await expect(booking.getByLabel("Phone Number")).toHaveValue("");
  expect(problems).toEqual([]);
});

test("a booking with mistakes says so beside its fields, and the panel fits a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.getByRole("button", { name: "New booking" }).click();
  const booking = panel(page);
  await booking.getByRole("radio", { name: "WhatsApp" }).check();
  await booking.getByLabel("Phone Number").fill("0812");
  await booking.getByRole("button", { name: "Place booking" }).click();

  await expect(booking.getByRole("alert").first()).toHaveText("Please correct the highlighted fields.");
  await expect(booking.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
  await expect(booking).toContainText("Please enter a Kenyan phone number");
  expect(await violations(page)).toEqual([]);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(390);
  const place = booking.getByRole("button", { name: "Place booking" });
  await place.scrollIntoViewIfNeeded();
  const box = await place.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
});
