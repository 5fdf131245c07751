// The free re-clean on a phone (390×844), against a server of this file's own that texts through a
// mock Africa's Talking the test runs (the shared server has no SMS settings, and the dashboard's
// tests rely on that): an order is delivered by staff, the customer opens the receipt link of the
// delivered text, goes to the re-clean form, chooses a line, says what is wrong, picks a window and
// lands on the re-clean's page (KSh 0, nothing to pay); the line is then shown taken. The same form
// without JavaScript posts and redirects, and answers a mistake next to its field.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signIn, violations, watchConsole } from "./support";

// axe-core is injected as an inline script, which the site's Content-Security-Policy forbids.
test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

const BINARY = path.resolve("../target/debug/laundry");
const STAFF = { email: "reclean-staff@example.com", password: "Browser-Test-Pass-2026" };
const PHONE = "+254733221100";

/** The texts the mock Africa's Talking received: (to, message). */
const texts: { to: string; message: string }[] = [];
let mock: Server;
let server: ChildProcess;
let base = "";

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Africa's Talking's messaging API as far as the server uses it: every text is "sent". */
async function startMock(): Promise<string> {
  let id = 0;
  mock = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const form = new URLSearchParams(body);
      const to = form.get("to") ?? "";
      texts.push({ to, message: form.get("message") ?? "" });
      id += 1;
      response.writeHead(201, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          SMSMessageData: {
            Message: "Sent to 1/1 Total Cost: KES 0.8000",
            Recipients: [
              { statusCode: 101, number: to, status: "Success", cost: "KES 0.8000", messageId: `ATXid_${id}` },
            ],
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  const at = await startMock();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const database = path.join(mkdtempSync(path.join(tmpdir(), "laundry-reclean-")), "laundry.db");
  const env = {
    ...process.env,
    LAUNDRY_ADDR: `127.0.0.1:${port}`,
    LAUNDRY_BASE_URL: base,
    LAUNDRY_FRONTEND_DIR: "dist",
    DATABASE_URL: `sqlite://${database}`,
    RUST_LOG: "warn",
    LAUNDRY_SUBMISSIONS_PER_HOUR: "10000",
    AT_BASE_URL: at,
    AT_USERNAME: "laundry_test",
    AT_API_KEY: "atsk_test_secret",
    AT_SENDER_ID: "USAFI",
  };
  const created = spawnSync(BINARY, ["admin", "create", "--email", STAFF.email], {
    env,
    input: `${STAFF.password}\n`,
  });
  expect(created.status, created.stderr.toString()).toBe(0);
  server = spawn(BINARY, ["serve"], { env, stdio: "ignore" });
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 30_000 })
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill();
  await new Promise((resolve) => mock?.close(resolve));
});

/** Places 3 kg of wash & fold and 2 shirts through the API, as the form does; its order ID. */
async function placeOrder(page: Page): Promise<string> {
  const response = await page.request.post(`${base}/api/orders`, {
    data: {
      customerName: "Wanjiku Re-clean",
      phone: PHONE,
      location: "Lavington, James Gichuru Rd",
      serviceType: "wash-fold",
      quantity: 3,
      paymentMethod: "pay-delivery",
      pieces: { shirt: 2 },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Staff sign in (a browser context of their own) and set the order delivered. */
async function deliver(browser: Browser, orderId: string) {
  const context = await browser.newContext();
  const staff = await context.newPage();
  const csrf = await signIn(staff, { account: STAFF, from: `${base}/admin/login`, hydrate: false });
  const changed = await staff.request.post(`${base}/api/admin/orders/${orderId}/status`, {
    data: { status: "delivered" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(changed.status()).toBe(200);
  await context.close();
}

/** The text the mock received that contains `words`. */
async function textWith(words: string): Promise<string> {
  await expect
    .poll(() => texts.find((text) => text.message.includes(words))?.message, { timeout: 20_000 })
    .toBeTruthy();
  const text = texts.find((sent) => sent.message.includes(words));
  expect(text?.to).toBe(PHONE);
  return text?.message ?? "";
}

test("a customer asks for a free re-clean from the link in their delivered text", async ({ page, browser }) => {
  const problems = watchConsole(page);
  const orderId = await placeOrder(page);
  await deliver(browser, orderId);
  const delivered = await textWith(`order ${orderId} delivered`);
  const receipt = /Receipt: (\S+)$/.exec(delivered)?.[1] ?? "";
  expect(receipt).toMatch(/\/t\/[a-z0-9]+\/receipt$/);

  await page.goto(receipt);
  await page
    .getByRole("link", { name: /^Not satisfied\? Ask for a free re-clean until [A-Z][a-z]{2} \d{1,2} / })
    .click();
  const card = page.locator("#reclean");
  await expect(card.getByRole("heading", { name: "Not happy with something?" })).toBeVisible();
  await expect(card).toContainText("We re-clean it free within 7 days of delivery: until ");
  await card.getByLabel("Shirt (2 pieces)").check();
  await card.getByLabel("What is wrong?").fill("The collar of one shirt is still stained.");
  const pickup = card.getByLabel("Pickup Day and Window");
  const window = await pickup.locator("option:not([disabled])").nth(2).getAttribute("value");
  await pickup.selectOption(window ?? "");
  await card.screenshot({ path: test.info().outputPath("reclean-form-390x844.png") });
  await card.getByRole("button", { name: "Ask for a free re-clean" }).click();

  await expect(page).toHaveURL(/\/t\/[a-z0-9]+\?done=reclean$/);
  await expect(page.getByRole("heading", { name: `Free re-clean of order ${orderId}` })).toBeVisible();
  await expect(page.getByText("The collar of one shirt is still stained.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Nothing to pay" })).toBeVisible();
  const total = page.locator(".tracked-order .summary-list > div", { has: page.getByText("Total", { exact: true }) });
  await expect(total.locator("dd")).toHaveText("KSh 0");
  await expect(page.getByText("Till Number")).toHaveCount(0);
  const recleanId = /Order #([A-Z0-9]{8})/.exec(await page.locator(".tracked-order h2").innerText())?.[1] ?? "";
  await page.screenshot({ path: test.info().outputPath("reclean-booked-390x844.png") });
  expect(await textWith(`free re-clean of order ${orderId} booked, order ${recleanId}. Pickup `)).toContain("/t/");

  // Asked again from the delivered order's page: the shirts are taken, the kg line is not.
  await page.goto(receipt.replace(/\/receipt$/, "#reclean"));
  const taken = card.locator("label", { hasText: "Shirt (2 pieces)" });
  await expect(taken).toContainText(`re-cleaned in order ${recleanId}`);
  await expect(taken.getByRole("checkbox")).toBeDisabled();
  await expect(card.getByLabel("Wash & Fold (3 kg)")).toBeEnabled();
  await card.screenshot({ path: test.info().outputPath("reclean-taken-390x844.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("reclean-taken-1280x800.png") });
  expect(await violations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the re-clean form posts, answers a mistake next to its field, and redirects", async ({ page, browser }) => {
    const orderId = await placeOrder(page);
    await deliver(browser, orderId);
    const delivered = await textWith(`order ${orderId} delivered`);
    const orderPage = (/Receipt: (\S+)$/.exec(delivered)?.[1] ?? "").replace(/\/receipt$/, "");
    await page.goto(orderPage);
    const card = page.locator("#reclean");

    await card.getByLabel("What is wrong?").fill("Still smells of smoke");
    await card.getByRole("button", { name: "Ask for a free re-clean" }).click();
    await expect(card.getByText("Please choose what should be cleaned again.")).toBeVisible();
    await expect(card.getByLabel("What is wrong?")).toHaveValue("Still smells of smoke");

    await card.getByLabel("Wash & Fold (3 kg)").check();
    await card.getByRole("button", { name: "Ask for a free re-clean" }).click();
    await expect(page).toHaveURL(/\/t\/[a-z0-9]+\?done=reclean$/);
    await expect(page.getByRole("heading", { name: `Free re-clean of order ${orderId}` })).toBeVisible();
    await expect(page.getByText("Your free re-clean is booked.")).toBeVisible();
  });
});
