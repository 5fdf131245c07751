// Orders with lines (issue 14): a kg line and items by the piece, priced in the summary before the
// order is placed and on the confirmation after; items added from the header search and /pricing;
// the plain form without JavaScript; Pay on Delivery; Back from the confirmation.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { hydrated, watchConsole } from "./support";

/** The customer of these tests. */
const CUSTOMER = { name: "Akinyi Odhiambo", phone: "0712 345 678", location: "Lavington, James Gichuru Rd" };

/** Wash & Fold 3 kg, 2 Shirts and 1 Graduation Gown, as the summary and the confirmation list them. */
const LINES = [
  "Wash & Fold 3 kg × KSh 150 KSh 450",
  "Shirt 2 pieces × KSh 200 KSh 400",
  "Graduation Gown 1 piece × KSh 700 KSh 700",
];
const TOTAL = "KSh 1,550";

/** The rows of an order's lines (label, quantity and price, amount), whitespace as a reader sees it. */
function lineRows(scope: Locator): Locator {
  return scope.locator(".order-lines tbody tr");
}

/** The total row of an order's lines. */
function totalRow(scope: Locator): Locator {
  return scope.locator(".order-lines tfoot tr");
}

/** The order summary card of /order. */
function summary(page: Page): Locator {
  return page.getByRole("complementary", { name: "Order Summary" });
}

/** A price-list item's count field in "Items by the piece". */
function pieceCount(page: Page, item: string): Locator {
  return page.getByRole("spinbutton", { name: item, exact: true });
}

/** Fills the customer's details and the main kg line. */
async function fillDetails(page: Page, service = "wash-fold", kg = "3") {
  await page.getByLabel("Full Name").fill(CUSTOMER.name);
  await page.getByLabel("Phone Number").fill(CUSTOMER.phone);
  await page.getByLabel("Location").fill(CUSTOMER.location);
  await page.getByLabel("Service Type").selectOption(service);
  await page.getByLabel("Quantity (kg)").fill(kg);
}

/** Opens "Items by the piece" (a plain details element, so this works without JavaScript too). */
async function openPieces(page: Page) {
  const toggle = page.getByText("Items by the piece");
  if ((await page.locator("details.pieces").getAttribute("open")) === null) await toggle.click();
}

/** Fills the order of LINES. */
async function fillOrder(page: Page) {
  await fillDetails(page);
  await openPieces(page);
  await pieceCount(page, "Shirt").fill("2");
  await pieceCount(page, "Graduation Gown").fill("1");
}

/** Places the order on the page and returns its order ID from the confirmation's address. */
async function placeIt(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
  return new URL(page.url()).searchParams.get("ref") ?? "";
}

/** Searches the header's modal and clicks an item's "Add to order". */
async function addFromSearch(page: Page, query: string, item: string) {
  await page.getByRole("button", { name: "Search pricing items" }).click();
  const dialog = page.getByRole("dialog", { name: "Search Pricing Items" });
  await dialog.getByPlaceholder("Search for laundry items...").fill(query);
  await dialog.getByRole("link", { name: `Add to order – ${item}`, exact: true }).click();
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a kg line and two pieces are priced line by line before and after the order is placed", async ({ page }) => {
      const problems = watchConsole(page);
      await page.goto("/order");
      await hydrated(page);

      await fillOrder(page);

      const card = summary(page);
      await expect(lineRows(card)).toHaveText(LINES, { useInnerText: true });
      await expect(totalRow(card)).toHaveText(`Total ${TOTAL}`, { useInnerText: true });
      await expect(card.getByText(`Amount: ${TOTAL}`)).toBeVisible();
      const button = page.getByRole("button", { name: "Place Order" });
      const [cardBox, buttonBox] = [await card.boundingBox(), await button.boundingBox()];
      if (viewport.width < 600) {
        // On a phone the total comes before the button, not after it.
        expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(buttonBox!.y);
      } else {
        expect(cardBox!.x).toBeGreaterThan(buttonBox!.x + buttonBox!.width);
      }

      const id = await placeIt(page);

      await expect(page.getByRole("heading", { name: "Order Confirmed!" })).toBeVisible();
      await expect(page.getByText(`Your order ID: ${id}`)).toBeVisible();
      const receipt = page.locator(".order-receipt");
      await expect(lineRows(receipt)).toHaveText(LINES, { useInnerText: true });
      await expect(totalRow(receipt)).toHaveText(`Total ${TOTAL}`, { useInnerText: true });
      await expect(page.getByText(`Amount: ${TOTAL}`)).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
}

test("an item added from the search on another page opens the order form with it", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);

  await addFromSearch(page, "gown", "Graduation Gown");

  // The link is /order?add=graduation-gown; once the form has taken the item, the address is
  // /order (a reload does not add it again).
  await hydrated(page);
  await expect(page).toHaveURL("/order");
  await expect(pieceCount(page, "Graduation Gown")).toHaveValue("1");
  await expect(pieceCount(page, "Graduation Gown")).toBeVisible();
  await expect(lineRows(summary(page))).toHaveText(["Graduation Gown 1 piece × KSh 700 KSh 700"], {
    useInnerText: true,
  });
  await expect(totalRow(summary(page))).toHaveText("Total KSh 700", { useInnerText: true });

  // Every price of the price list can be ordered at that price: the gown alone, no kg.
  await page.getByLabel("Full Name").fill(CUSTOMER.name);
  await page.getByLabel("Phone Number").fill(CUSTOMER.phone);
  await page.getByLabel("Location").fill(CUSTOMER.location);
  const id = await placeIt(page);

  await expect(page.getByText(`Your order ID: ${id}`)).toBeVisible();
  const receipt = page.locator(".order-receipt");
  await expect(lineRows(receipt)).toHaveText(["Graduation Gown 1 piece × KSh 700 KSh 700"], { useInnerText: true });
  await expect(totalRow(receipt)).toHaveText("Total KSh 700", { useInnerText: true });
});

test("on /order an item added from the search joins the form and keeps what was typed", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);
  await fillDetails(page);

  await addFromSearch(page, "shirt", "Shirt");

  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/order$/);
  await expect(pieceCount(page, "Shirt")).toHaveValue("1");
  await expect(pieceCount(page, "Shirt")).toBeFocused();
  await expect(page.getByLabel("Full Name")).toHaveValue(CUSTOMER.name);
  await expect(page.getByLabel("Phone Number")).toHaveValue(CUSTOMER.phone);
  await expect(page.getByLabel("Service Type")).toHaveValue("wash-fold");
  await expect(page.getByLabel("Quantity (kg)")).toHaveValue("3");

  await addFromSearch(page, "shirt", "Shirt");

  await expect(pieceCount(page, "Shirt")).toHaveValue("2");
  await expect(lineRows(summary(page))).toHaveText(LINES.slice(0, 2), { useInnerText: true });
  await expect(totalRow(summary(page))).toHaveText("Total KSh 850", { useInnerText: true });
});

test("Add to order on /pricing twice keeps both items and what was typed; placing forgets them", async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto("/pricing");
  await page.getByRole("link", { name: "Add to order – Shirt", exact: true }).click();
  await expect(pieceCount(page, "Shirt")).toHaveValue("1");
  await hydrated(page);
  // The address no longer adds: a reload keeps one shirt.
  await expect(page).toHaveURL("/order");
  await page.getByLabel("Full Name").fill(CUSTOMER.name);
  await page.getByLabel("Phone Number").fill(CUSTOMER.phone);

  await page.goto("/pricing");
  await page.getByRole("link", { name: "Add to order – Dress", exact: true }).click();

  await hydrated(page);
  await expect(pieceCount(page, "Shirt")).toHaveValue("1");
  await expect(pieceCount(page, "Dress")).toHaveValue("1");
  await expect(page.getByLabel("Full Name")).toHaveValue(CUSTOMER.name);
  await expect(page.getByLabel("Phone Number")).toHaveValue(CUSTOMER.phone);
  await expect(lineRows(summary(page))).toHaveText(
    ["Shirt 1 piece × KSh 200 KSh 200", "Dress 1 piece × KSh 200 KSh 200"],
    { useInnerText: true },
  );
  await page.reload();
  await hydrated(page);
  await expect(pieceCount(page, "Dress")).toHaveValue("1");

  await page.getByLabel("Location").fill(CUSTOMER.location);
  await placeIt(page);
  await page.goto("/order");
  await hydrated(page);
  await expect(page.getByLabel("Full Name")).toHaveValue("");
  await expect(page.locator(`input[name="piece.shirt"]`)).toHaveValue("");
  expect(problems).toEqual([]);
});

test("Add to order on /pricing opens the form with General Laundry chosen", async ({ page }) => {
  await page.goto("/pricing");
  await page.getByRole("link", { name: "Add to order – Each Additional Kg", exact: true }).click();

  await expect(page.getByLabel("Service Type")).toHaveValue("general-laundry");
  await hydrated(page);
  await page.getByLabel("Quantity (kg)").fill("8");
  await expect(lineRows(summary(page))).toHaveText(
    ["General Laundry 8 kg: KSh 500 for up to 5 kg + KSh 100 × 3 kg KSh 800"],
    { useInnerText: true },
  );
});

test("the service options read their price, General Laundry its bundle", async ({ page }) => {
  await page.goto("/order");

  const options = page.getByLabel("Service Type").locator("option");

  await expect(options).toHaveText([
    "Select a service",
    "Wash & Fold - KSh 150 per kg",
    "Ironing - KSh 200 per kg",
    "Dry Cleaning - KSh 500 per kg",
    "Bedding - KSh 300 per kg",
    "General Laundry - KSh 500 up to 5 kg, then KSh 100 per kg",
  ]);
});

test("a wrong quantity is named in the summary, and nothing chosen asks for a service", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);
  await expect(summary(page)).toContainText("Select a service to see pricing");
  await expect(page.getByText(/This summary does not change as you fill in the form/)).toBeHidden();

  await page.getByLabel("Service Type").selectOption("ironing");
  for (const kg of ["0", "2.5", "600"]) {
    await page.getByLabel("Quantity (kg)").fill(kg);
    await expect(summary(page)).toContainText("Enter whole kilograms from 1 to 500");
    await expect(totalRow(summary(page))).toHaveCount(0);
  }
});

test("Pay on Delivery hides the M-PESA till and says the valet is paid on delivery", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);
  await expect(summary(page).getByText("Till Number: 3552248")).toBeVisible();

  await page.getByRole("radio", { name: "Pay on Delivery" }).check();

  await expect(summary(page).getByText("Till Number")).toHaveCount(0);
  await expect(summary(page)).toContainText("You pay the valet when we deliver your clean laundry.");
});

test("Back from the confirmation keeps the phone, service and quantity", async ({ page }) => {
  await page.goto("/order");
  await hydrated(page);
  await fillDetails(page, "bedding", "4");
  await placeIt(page);

  await page.goBack();
  await hydrated(page);

  await expect(page.getByLabel("Phone Number")).toHaveValue(CUSTOMER.phone);
  await expect(page.getByLabel("Service Type")).toHaveValue("bedding");
  await expect(page.getByLabel("Quantity (kg)")).toHaveValue("4");
  await expect(lineRows(summary(page))).toHaveText(["Bedding 4 kg × KSh 300 KSh 1,200"], { useInnerText: true });
  await expect(page.getByRole("button", { name: "Place Order" })).toBeEnabled();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a plain post of a kg line and a piece places the order with both lines", async ({ page }) => {
    await page.goto("/order");
    // The summary cannot follow the form without JavaScript, and says so.
    await expect(
      page.locator(".order-summary").getByText(/This summary does not change as you fill in the form/),
    ).toBeVisible();
    await fillDetails(page, "dry-cleaning", "2");
    await openPieces(page);
    await pieceCount(page, "Shirt").fill("3");

    await placeIt(page);

    const receipt = page.locator(".order-receipt");
    await expect(lineRows(receipt)).toHaveText(
      ["Dry Cleaning 2 kg × KSh 500 KSh 1,000", "Shirt 3 pieces × KSh 200 KSh 600"],
      {
        useInnerText: true,
      },
    );
    await expect(totalRow(receipt)).toHaveText("Total KSh 1,600", { useInnerText: true });
  });

  test("Add to order from /pricing fills the form on the server", async ({ page }) => {
    await page.goto("/pricing");

    await page.getByRole("link", { name: "Add to order – Masai Shawl", exact: true }).click();

    await expect(pieceCount(page, "Masai Shawl")).toHaveValue("1");
    await expect(pieceCount(page, "Masai Shawl")).toBeVisible();
  });
});
