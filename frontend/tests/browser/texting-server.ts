// A server of a test file's own that texts through a mock Africa's Talking the test runs: the
// shared server of playwright.config.ts has no SMS settings (the dashboard's tests rely on that).
// The mock answers every text "sent" and keeps what it received.
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

/** The server, its address, the staff account made for it, and the texts it sent. */
export interface TextingServer {
  base: string;
  texts: Text[];
  /** The text the mock received that contains `words`, once it has (20 s at most). */
  textWith: (words: string) => Promise<Text>;
  stop: () => Promise<void>;
}

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

/** Starts the mock and a server on a fresh SQLite database, with `staff` as its owner account. */
export async function startTextingServer(
  name: string,
  staff: { email: string; password: string },
): Promise<TextingServer> {
  const texts: Text[] = [];
  const mock = await startMock(texts);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = path.join(mkdtempSync(path.join(tmpdir(), `laundry-${name}-`)), "laundry.db");
  const env = {
    ...process.env,
    LAUNDRY_ADDR: `127.0.0.1:${port}`,
    LAUNDRY_BASE_URL: base,
    LAUNDRY_FRONTEND_DIR: "dist",
    DATABASE_URL: `sqlite://${database}`,
    RUST_LOG: "warn",
    LAUNDRY_SUBMISSIONS_PER_HOUR: "10000",
    AT_BASE_URL: `http://127.0.0.1:${(mock.address() as AddressInfo).port}`,
    AT_USERNAME: "laundry_test",
    AT_API_KEY: "atsk_test_secret",
    AT_SENDER_ID: "USAFI",
  };
  const created = spawnSync(BINARY, ["admin", "create", "--email", staff.email], {
    env,
    input: `${staff.password}\n`,
  });
  expect(created.status, created.stderr.toString()).toBe(0);
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
    async stop() {
      server.kill();
      await new Promise((resolve) => mock.close(resolve));
    },
  };
}
