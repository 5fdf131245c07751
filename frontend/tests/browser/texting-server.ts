// A server of a test file's own that texts through a mock Africa's Talking the test runs: the
// shared server of playwright.config.ts has no SMS settings (the dashboard's tests rely on that).
// The mock answers every text "sent" and keeps what it received. Asked for, a mock Daraja too:
// prompts are accepted and kept, their status queries answer "being processed", and the test
// pays one by posting M-PESA's callback (`payPrompt`).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";

const BINARY = path.resolve("../target/debug/laundry");

/** A text the mock received. */
export interface Text {
  to: string;
  message: string;
}

/** An M-PESA prompt the mock Daraja accepted. */
export interface Prompt {
  /** Daraja's id of it, which the callback names. */
  checkout: string;
  /** KSh asked. */
  amount: number;
  /** `2547…`, as Daraja takes it. */
  phone: string;
}

/** What the server is started with besides its texts. */
export interface ServerOptions {
  /** More accounts, each with its role (`valet`, `staff`, `owner`). */
  accounts?: { email: string; password: string; role: string }[];
  /** Prompts through a mock Daraja. */
  daraja?: boolean;
  /** More of the server's settings (`LAUNDRY_PICKUP_WINDOWS`…). */
  env?: Record<string, string>;
}

/** The server, its address, the staff account made for it, and the texts it sent. */
export interface TextingServer {
  base: string;
  texts: Text[];
  /** The text the mock received that contains `words`, once it has (20 s at most). */
  textWith: (words: string) => Promise<Text>;
  /** The prompts the mock Daraja accepted (none without `daraja`). */
  prompts: Prompt[];
  /** M-PESA's callback that `prompt` was paid, with the M-PESA code `receipt`. */
  payPrompt: (prompt: Prompt, receipt: string) => Promise<void>;
  stop: () => Promise<void>;
}

/** The secret in the path of M-PESA's callbacks. */
const CALLBACK_SECRET = "browser-ledger-payments-secret-0123456789";

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Africa's Talking's messaging API as far as the server uses it: every text is "sent". */
async function startMock(texts: Text[]): Promise<Server> {
  let id = 0;
  const mock = createServer((request, response) => {
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
  return mock;
}

/** Daraja's API as far as the server uses it: a token, prompts accepted (each kept in `prompts`),
 * status queries "being processed" (the callback decides). */
async function startDaraja(prompts: Prompt[]): Promise<Server> {
  const mock = createServer((request, response) => {
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
        const asked = JSON.parse(body) as { Amount: number; PhoneNumber: string | number };
        const checkout = `ws_CO_ledger_${prompts.length + 1}`;
        prompts.push({ checkout, amount: Number(asked.Amount), phone: String(asked.PhoneNumber) });
        reply(200, {
          MerchantRequestID: `m-${prompts.length}`,
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
  await new Promise<void>((resolve) => mock.listen(0, "127.0.0.1", resolve));
  return mock;
}

/** The settings that send prompts through the mock Daraja at `daraja`. */
function darajaEnv(daraja: Server): Record<string, string> {
  return {
    MPESA_BASE_URL: `http://127.0.0.1:${(daraja.address() as AddressInfo).port}`,
    MPESA_CONSUMER_KEY: "browser-key",
    MPESA_CONSUMER_SECRET: "browser-secret",
    MPESA_SHORTCODE: "174379",
    MPESA_TILL: "3552248",
    MPESA_PASSKEY: "browser-passkey",
    MPESA_CALLBACK_BASE_URL: "https://laundry.example.com",
    MPESA_CALLBACK_SECRET: CALLBACK_SECRET,
  };
}

/** Starts the mocks and a server on a fresh SQLite database, with `staff` as its staff account. */
export async function startTextingServer(
  name: string,
  staff: { email: string; password: string },
  options: ServerOptions = {},
): Promise<TextingServer> {
  const texts: Text[] = [];
  const prompts: Prompt[] = [];
  const mock = await startMock(texts);
  const daraja = options.daraja ? await startDaraja(prompts) : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = path.join(mkdtempSync(path.join(tmpdir(), `laundry-${name}-`)), "laundry.db");
  const env = {
    ...process.env,
    LAUNDRY_ADDR: `127.0.0.1:${port}`,
    LAUNDRY_BASE_URL: base,
    LAUNDRY_FRONTEND_DIR: "dist",
    DATABASE_URL: `sqlite://${database}`,
    LAUNDRY_PHOTOS_DIR: path.join(path.dirname(database), "photos"),
    RUST_LOG: "warn",
    LAUNDRY_SUBMISSIONS_PER_HOUR: "10000",
    AT_BASE_URL: `http://127.0.0.1:${(mock.address() as AddressInfo).port}`,
    AT_USERNAME: "laundry_test",
    AT_API_KEY: "atsk_test_secret",
    AT_SENDER_ID: "USAFI",
    ...(daraja ? darajaEnv(daraja) : {}),
    ...options.env,
  };
  for (const account of [{ ...staff, role: "staff" }, ...(options.accounts ?? [])]) {
    const created = spawnSync(BINARY, ["admin", "create", "--email", account.email, "--role", account.role], {
      env,
      input: `${account.password}\n`,
    });
    expect(created.status, created.stderr.toString()).toBe(0);
  }
  const server: ChildProcess = spawn(BINARY, ["serve"], { env, stdio: "ignore" });
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 30_000 })
    .toBe(200);
  return {
    base,
    texts,
    async textWith(words: string): Promise<Text> {
      await expect.poll(() => texts.find((text) => text.message.includes(words)), { timeout: 20_000 }).toBeTruthy();
      return texts.find((text) => text.message.includes(words)) ?? { to: "", message: "" };
    },
    prompts,
    async payPrompt(prompt: Prompt, receipt: string) {
      const callback = {
        Body: {
          stkCallback: {
            MerchantRequestID: `m-${prompts.indexOf(prompt) + 1}`,
            CheckoutRequestID: prompt.checkout,
            ResultCode: 0,
            ResultDesc: "The service request is processed successfully.",
            CallbackMetadata: {
              Item: [
                { Name: "Amount", Value: prompt.amount },
                { Name: "MpesaReceiptNumber", Value: receipt },
                { Name: "TransactionDate", Value: 20261124193015 },
                { Name: "PhoneNumber", Value: Number(prompt.phone) },
              ],
            },
          },
        },
      };
      const answer = await fetch(`${base}/hooks/payments/prompt/${CALLBACK_SECRET}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(callback),
      });
      expect(answer.status).toBe(200);
    },
    async stop() {
      server.kill();
      await new Promise((resolve) => mock.close(resolve));
      if (daraja) await new Promise((resolve) => daraja.close(resolve));
    },
  };
}
