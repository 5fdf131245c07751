// The demo's own pages of `laundry serve --demo` (docs/demo.md): the start page, the texts and
// e-mails the stand-ins received, and the M-PESA prompts on "the phone". On a phone's screen axe
// finds nothing on them, and the lists are brought up to date by a link, never by a meta refresh,
// which would move the page under a reader's finger (issue 49).
import { type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { startOwnServer, violations } from "./support";

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 4173) + 12;
const BASE = `http://127.0.0.1:${PORT}`;

// A phone's screen; `bypassCSP` lets axe-core (`violations`) be injected as an inline script.
test.use({ baseURL: BASE, viewport: { width: 390, height: 844 }, bypassCSP: true });

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  server = await startOwnServer({ port: PORT, name: "demo", env: {}, accounts: [], args: ["serve", "--demo"] });
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

for (const [path, heading] of [
  ["/dev", "Demo"],
  ["/dev/texts", "Texts and e-mails"],
  ["/dev/mpesa", "M-PESA prompts"],
] as const) {
  test(`${path} passes axe and refreshes only when asked`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true, level: 1 })).toBeVisible();
    await expect(page.locator('meta[http-equiv="refresh" i]')).toHaveCount(0);
    expect(await violations(page)).toEqual([]);
  });
}

test("the texts page's Refresh link shows what arrived since it was opened", async ({ page }) => {
  await page.goto("/dev/texts");
  const refresh = page.getByRole("link", { name: "Refresh" });
  await expect(refresh).toBeVisible();
  await refresh.click();
  await expect(page).toHaveURL(/\/dev\/texts/);
  await expect(page.getByRole("heading", { name: "Texts and e-mails" })).toBeVisible();
});
