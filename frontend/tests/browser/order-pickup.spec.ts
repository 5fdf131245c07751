// The order form's Pickup group (issue 16): a window chosen from the next days' list, next-day rush
// in the summary and the total, a landmark and a map pin from the browser's position, and the
// confirmation that shows the window waiting for the confirmation call; the same without JavaScript.
import { expect, type Page, test } from "@playwright/test";
import { hydrated, watchConsole } from "./support";

/** One window of the order page's props (`PickupOption`). */
interface Option {
  value: string;
  label: string;
  remaining: number;
  delivery: string;
  rushDelivery: string;
}

/** The first window with room, as the server put it in the page. */
async function firstOpenWindow(page: Page): Promise<Option> {
  return page.evaluate(() => {
    const data = JSON.parse(document.getElementById("page-data")?.textContent ?? "{}") as {
      props: { pickup: { days: { windows: Option[] }[] } };
    };
    const open = data.props.pickup.days.flatMap((day) => day.windows).find((window) => window.remaining > 0);
    if (!open) throw new Error("no open window");
    return open;
  });
}

async function fillDetails(page: Page, phone: string) {
  await page.getByLabel("Full Name").fill("Njeri Mwangi");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByLabel("Location", { exact: true }).fill("Kilimani, Ring Rd");
  await page.getByLabel("Landmark").fill("Opposite Yaya Centre, blue gate");
  await page.getByLabel("Service Type").selectOption("wash-fold");
  await page.getByLabel("Quantity (kg)").fill("3");
}

test.describe("on a phone", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    geolocation: { latitude: -1.2921, longitude: 36.7866 },
    permissions: ["geolocation"],
  });

  test("a customer picks a window, adds rush and their location, and the confirmation shows the slot", async ({
    page,
  }) => {
    const problems = watchConsole(page);
    await page.goto("/order");
    await hydrated(page);
    const window = await firstOpenWindow(page);
    const pickup = page.getByLabel("Pickup Day and Window");
    await expect(pickup).toHaveValue(window.value);
    // A closed select shows the chosen option alone, not its day's group: the option names its day.
    await expect(pickup.locator("option:checked")).toHaveText(`${window.label} (${window.remaining} left)`);
    await fillDetails(page, "0712 555 016");
    const summary = page.getByRole("complementary", { name: "Order Summary" });
    await expect(summary).toContainText(`Pickup${window.label}`);
    await expect(summary).toContainText(`Delivery${window.delivery}`);

    await page.getByLabel("Next-day rush (+KSh 300)").check();

    await expect(summary).toContainText(`Delivery (next-day rush)${window.rushDelivery}`);
    await expect(summary.locator(".order-lines tbody tr").last()).toHaveText("Next-day rushKSh 300");
    await expect(summary.locator(".order-lines tfoot tr")).toHaveText("TotalKSh 750");

    await page.getByRole("button", { name: "Use my location" }).click();
    await expect(page.getByText("Location added")).toBeVisible();
    await expect(page.locator('input[name="pinLat"]')).toHaveValue("-1.292100");
    await page.screenshot({ path: test.info().outputPath("order-pickup-390.png"), fullPage: true });
    await page.getByRole("button", { name: "Place Order" }).click();

    await expect(page).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
    await expect(page.getByText(window.label)).toBeVisible();
    await expect(page.getByText("Waiting for confirmation: we will call you within 30 minutes")).toBeVisible();
    await expect(page.getByText(window.rushDelivery)).toBeVisible();
    await expect(page.getByRole("link", { name: "Track this order" })).toHaveAttribute("href", /^\/t\/[a-z0-9]{16}$/);
    expect(problems).toEqual([]);
  });

  test("a location shared and then removed is not sent", async ({ page }) => {
    await page.goto("/order");
    await hydrated(page);

    await page.getByRole("button", { name: "Use my location" }).click();
    await page.getByRole("button", { name: "Remove" }).click();

    await expect(page.getByText("Location added")).toHaveCount(0);
    await expect(page.locator('input[name="pinLat"]')).toHaveValue("");
    await expect(page.getByRole("button", { name: "Use my location" })).toBeVisible();
  });
});

test("a window that fills up while the form is open is refused beside the field and shown as full", async ({
  page,
}) => {
  await page.goto("/order");
  await hydrated(page);
  // The last window offered, which these tests book nothing else into.
  const last = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById("page-data")?.textContent ?? "{}") as {
      props: { pickup: { days: { windows: Option[] }[] } };
    };
    const windows = data.props.pickup.days.flatMap((day) => day.windows);
    return windows[windows.length - 1];
  });
  if (!last) throw new Error("no window offered");
  await fillDetails(page, "0712 555 018");
  const pickup = page.getByLabel("Pickup Day and Window");
  await pickup.selectOption(last.value);
  // Other customers take every place left meanwhile.
  for (let n = 0; n < last.remaining; n += 1) {
    const order = {
      customerName: "Other Customer",
      phone: `0712 556 ${String(n).padStart(3, "0")}`,
      location: "Westlands",
      serviceType: "ironing",
      quantity: 1,
      pickup: last.value,
    };
    expect((await page.request.post("/api/orders", { data: order })).status()).toBe(201);
  }

  await page.getByRole("button", { name: "Place Order" }).click();

  await expect(page.locator("#order-pickup-error")).toHaveText(
    `The ${last.label} window is full. Please choose another window.`,
  );
  await expect(pickup).toHaveValue("");
  await expect(pickup.locator(`option[value="${last.value}"]`)).toHaveText(/\(full\)$/);
  await expect(pickup.locator(`option[value="${last.value}"]`)).toBeDisabled();
  await expect(page).toHaveURL(/\/order$/);
});

test.describe("when the browser keeps the location to itself", () => {
  test.use({ permissions: [] });

  test("the customer is told, and can still describe the place", async ({ page }) => {
    await page.goto("/order");
    await hydrated(page);

    await page.getByRole("button", { name: "Use my location" }).click();

    await expect(page.getByRole("alert")).toHaveText(
      "Your browser did not allow us to see your location. You can still describe the place in Location and Landmark.",
    );
    await expect(page.locator('input[name="pinLat"]')).toHaveValue("");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the window list and rush work as a plain form, with no location button", async ({ page }) => {
    await page.goto("/order");
    const window = await page.getByLabel("Pickup Day and Window").inputValue();
    expect(window).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await expect(page.getByRole("button", { name: "Use my location" })).toHaveCount(0);
    await fillDetails(page, "0712 555 017");
    await page.getByLabel("Next-day rush (+KSh 300)").check();

    await page.getByRole("button", { name: "Place Order" }).click();

    await expect(page).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
    await expect(page.getByText("Waiting for confirmation: we will call you within 30 minutes")).toBeVisible();
    await expect(page.getByText("Next-day rush", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Track this order" })).toHaveAttribute("href", /^\/t\/[a-z0-9]{16}$/);
  });
});
