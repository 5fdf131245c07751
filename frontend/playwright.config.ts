// Browser tests in Debian's Chromium (never a downloaded browser) against the real server.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// A fresh SQLite database for each run of the browser tests.
const database = path.join(mkdtempSync(path.join(tmpdir(), "laundry-browser-")), "laundry.db");

const port = Number(process.env.BROWSER_TEST_PORT ?? 4173);

export default defineConfig({
  testDir: "tests/browser",
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The one staff account of the browser tests (tests/browser/admin.spec.ts), then the server.
    command:
      "printf '%s\\n' 'Browser-Test-Pass-2026' | ../target/debug/laundry admin create --email staff@example.com" +
      " && exec ../target/debug/laundry serve",
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      LAUNDRY_ADDR: `127.0.0.1:${port}`,
      LAUNDRY_FRONTEND_DIR: "dist",
      DATABASE_URL: `sqlite://${database}`,
      LAUNDRY_PHOTOS_DIR: path.join(path.dirname(database), "photos"),
      RUST_LOG: "warn",
      // All of the tests' orders and messages come from one address.
      LAUNDRY_SUBMISSIONS_PER_HOUR: "10000",
      // Till confirmations reach the server (tests/browser/mpesa-staff.spec.ts); prompts stay off.
      MPESA_CALLBACK_SECRET: "browser-test-payments-secret-0123456789",
      // Texts to the shop's number reach the server (tests/browser/inbox.spec.ts); none are sent.
      LAUNDRY_SMS_HOOK_SECRET: "browser-test-sms-secret-0123456789",
    },
  },
});
