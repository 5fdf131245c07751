// M-PESA as the customer sees it, on a phone (390×844): a server of its own whose Daraja is a mock on
// loopback, so that a "Pay Now (M-PESA)" order sends a prompt. The confirmation says "check your
// phone"; the success callback the test posts turns it into "paid" without a reload; the receipt
// prints on 80 mm paper.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, test } from "@playwright/test";
import { placeOrder, watchConsole } from "./support";

const SECRET = "browser-payments-secret-0123456789";

/** The mock Daraja: a token, prompts accepted with numbered CheckoutRequestIDs, queries pending. */
function mockDaraja(checkouts: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.url?.startsWith("/oauth/v1/generate")) {
        reply(200, { access_token: "browser-token", expires_in: "3599" });
      } else if (request.url === "/mpesa/stkpush/v1/processrequest") {
        const checkout = `ws_CO_browser_${checkouts.length + 1}`;
        checkouts.push(checkout);
        reply(200, {
          MerchantRequestID: `m-${checkouts.length}`,
          CheckoutRequestID: checkout,
          ResponseCode: "0",
          ResponseDescription: "Success. Request accepted for processing",
          CustomerMessage: "Success. Request accepted for processing",
        });
      } else if (request.url === "/mpesa/stkpushquery/v1/query") {
        reply(500, { errorCode: "500.001.1001", errorMessage: "The transaction is being processed" });
      } else {
        reply(404, {});
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let daraja: Server;
let server: ChildProcess;
let site = "";
const checkouts: string[] = [];

test.beforeAll(async () => {
  daraja = await mockDaraja(checkouts);
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  const database = path.join(mkdtempSync(path.join(tmpdir(), "laundry-mpesa-")), "laundry.db");
  server = spawn("../target/debug/laundry", ["serve"], {
    stdio: "inherit",
    env: {
      ...process.env,
      LAUNDRY_ADDR: `127.0.0.1:${port}`,
      LAUNDRY_FRONTEND_DIR: "dist",
      DATABASE_URL: `sqlite://${database}`,
      RUST_LOG: "warn",
      LAUNDRY_SUBMISSIONS_PER_HOUR: "10000",
      MPESA_BASE_URL: `http://127.0.0.1:${(daraja.address() as AddressInfo).port}`,
      MPESA_CONSUMER_KEY: "browser-key",
      MPESA_CONSUMER_SECRET: "browser-secret",
      MPESA_SHORTCODE: "174379",
      MPESA_TILL: "3552248",
      MPESA_PASSKEY: "browser-passkey",
      MPESA_CALLBACK_BASE_URL: "https://laundry.example.com",
      MPESA_CALLBACK_SECRET: SECRET,
    },
  });
  await expect
    .poll(async () => (await fetch(`${site}/healthz`).catch(() => null))?.ok ?? false, { timeout: 30_000 })
    .toBe(true);
});

test.afterAll(() => {
  server?.kill();
  daraja?.close();
});

async function phone(browser: Browser, width = 390, height = 844) {
  const context = await browser.newContext({ baseURL: site, viewport: { width, height } });
  return context.newPage();
}

/** M-PESA's callback for the `n`th prompt: paid, `amount` from `phone`, with its receipt `code`. */
function paidCallback(n: number, amount: number, code: string, phone: number) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: `m-${n}`,
        CheckoutRequestID: checkouts[n - 1],
        ResultCode: 0,
        ResultDesc: "The service request is processed successfully.",
        CallbackMetadata: {
          Item: [
            { Name: "Amount", Value: amount },
            { Name: "MpesaReceiptNumber", Value: code },
            { Name: "TransactionDate", Value: 20261124193015 },
            { Name: "PhoneNumber", Value: phone },
          ],
        },
      },
    },
  };
}

test("a pay-now order says check your phone, then paid without a reload; its receipt fits 80 mm", async ({
  browser,
}) => {
  const page = await phone(browser);
  const problems = watchConsole(page);
  await page.goto("/order");
  await expect(page.getByText("your phone gets an M-PESA prompt")).toBeVisible();

  const reference = await placeOrder(page, {
    customer: "Amina Wanjiru",
    phone: "0712 555 701",
    location: "Kilimani",
    service: "wash-fold",
    kg: "3",
  });
  const payment = page.locator(".payment-state");
  await expect(payment).toContainText("Check your phone: enter your M-PESA PIN to pay KSh 450.");
  await expect.poll(() => checkouts.length).toBe(1);
  await page.screenshot({ path: test.info().outputPath("confirmation-prompt-390.png"), fullPage: true });

  // The phone pays; M-PESA calls back. The page, left alone, shows it.
  const callback = paidCallback(1, 450, "QKH94M1Z11", 254712555701);
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  const answer = await page.request.post(`/hooks/payments/prompt/${SECRET}`, { data: callback });
  expect(answer.status()).toBe(200);
  const paid = page.locator(".payment-state--paid");
  await expect(paid.locator(".payment-state__balance")).toHaveText("Paid KSh 450", { timeout: 15_000 });
  await expect(paid.locator(".payment-list li", { hasText: "M-PESA prompt" })).toContainText("code QKH94M1Z11");
  expect(navigations).toEqual([]);
  expect(problems).toEqual([]);

  // The order's page links the receipt; printed on 80 mm paper, nothing is wider than the roll.
  const orderPath = await page.getByRole("link", { name: "Track this order" }).getAttribute("href");
  await page.goto(orderPath ?? "");
  await page.screenshot({ path: test.info().outputPath("order-paid-390.png"), fullPage: true });
  await page.getByRole("link", { name: "View and print the receipt" }).click();
  await expect(page.getByRole("heading", { name: "Receipt" })).toBeVisible();
  await expect(page.getByText(reference, { exact: true })).toBeVisible();
  const receipt = page.locator(".receipt__payment");
  await expect(receipt.locator("div", { hasText: "M-PESA prompt" })).toContainText("KSh 450");
  await expect(receipt).toContainText("code QKH94M1Z11");
  await expect(receipt.locator("div", { hasText: "Balance" })).toContainText("Paid KSh 450");
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("receipt-390.png"), fullPage: true });
  await page.getByRole("link", { name: "Lay out for 80 mm receipt paper" }).click();
  await expect(page).toHaveURL(/paper=80mm$/);

  // 80 mm at 96 dpi is 302 px.
  await page.setViewportSize({ width: 302, height: 844 });
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    receipt: document.querySelector(".receipt")?.getBoundingClientRect().width ?? 0,
  }));
  expect(widths.page).toBeLessThanOrEqual(302);
  expect(widths.receipt).toBeGreaterThan(250);
  await page.screenshot({ path: test.info().outputPath("receipt-80mm-print.png"), fullPage: true });
  // The page printed is 80 mm wide (226.8 points), not the printer's default paper.
  const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf);
  expect(box, "the PDF has a page box").not.toBeNull();
  expect(Number(box?.[1])).toBeCloseTo((80 / 25.4) * 72, 0);
  expect(Number(box?.[2])).toBeGreaterThan(100);
});

test("the receipt and the order's page look right on a laptop", async ({ browser }) => {
  const page = await phone(browser, 1280, 800);
  await placeOrder(page, {
    customer: "Baraka Otieno",
    phone: "0712 555 702",
    location: "Westlands",
    service: "wash-fold",
    kg: "4",
  });
  await expect(page.locator(".payment-state")).toContainText("Check your phone");
  await page.screenshot({ path: test.info().outputPath("confirmation-prompt-1280.png"), fullPage: true });
  const orderPath = await page.getByRole("link", { name: "Track this order" }).getAttribute("href");
  await page.goto(`${orderPath}/receipt`);
  const balance = page.locator(".receipt__payment > div", { hasText: "Balance" });
  await expect(balance).toContainText("KSh 600 to pay");
  await expect(page.locator(".receipt__payment")).not.toContainText("paid");
  await page.screenshot({ path: test.info().outputPath("receipt-1280.png"), fullPage: true });
});

test("paid while its page is open, the order's page offers the receipt and no longer the cancelling", async ({
  browser,
}) => {
  const page = await phone(browser);
  const problems = watchConsole(page);
  const before = checkouts.length;
  await placeOrder(page, {
    customer: "Wanjiku Kamau",
    phone: "0712 555 703",
    location: "Lavington",
    service: "wash-fold",
    kg: "2",
  });
  await expect(page.locator(".payment-state")).toContainText("Check your phone");
  await expect.poll(() => checkouts.length).toBe(before + 1);
  const prompt = checkouts.length;
  const orderPath = await page.getByRole("link", { name: "Track this order" }).getAttribute("href");
  await page.goto(orderPath ?? "");
  await expect(page.getByRole("button", { name: "Cancel Order" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View and print the receipt" })).toHaveCount(0);

  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  const answer = await page.request.post(`/hooks/payments/prompt/${SECRET}`, {
    data: paidCallback(prompt, 300, "QKH94M1Z12", 254712555703),
  });
  expect(answer.status()).toBe(200);
  await expect(page.locator(".payment-state--paid .payment-state__balance")).toHaveText("Paid KSh 300", {
    timeout: 15_000,
  });
  await expect(page.getByRole("button", { name: "Cancel Order" })).toHaveCount(0);
  await expect(page.getByText("Money was paid for this order, so it cannot be cancelled online.")).toBeVisible();
  await expect(page.getByRole("link", { name: "View and print the receipt" })).toHaveAttribute(
    "href",
    `${orderPath}/receipt`,
  );
  expect(navigations).toEqual([]);
  expect(problems).toEqual([]);
});
