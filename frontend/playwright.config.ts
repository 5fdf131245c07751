// Browser tests in Debian's Chromium (never a downloaded browser) against the real server.
import { defineConfig } from "@playwright/test";

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
    command: "../target/debug/laundry serve",
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      LAUNDRY_ADDR: `127.0.0.1:${port}`,
      LAUNDRY_FRONTEND_DIR: "dist",
      RUST_LOG: "warn",
    },
  },
});
