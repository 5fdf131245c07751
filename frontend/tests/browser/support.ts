// Helpers the browser tests share.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

/** Collects console errors and page errors; hydration problems arrive as one or the other. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** Resolves once React has hydrated: the header's search toggle then answers clicks. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector('button[aria-label="Search pricing items"]');
    return button !== null && Object.keys(button).some((key) => key.startsWith("__reactFiber"));
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's violations on the page as it is now, one line each. The test must `bypassCSP`: axe
 * is injected as an inline script, which the site's Content-Security-Policy rightly forbids. */
export async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } })
      .axe;
    return (await axe.run(document)).violations;
  });
  return found.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The one staff account of the browser tests' server (playwright.config.ts creates it). */
export const STAFF = { email: "staff@example.com", password: "Browser-Test-Pass-2026" };

/** How `signIn` signs in. */
export interface SignInOptions {
  /** The account; the browser tests' staff account by default. */
  account?: { email: string; password: string };
  /** Where to start: a page that sends a visitor who is not signed in to the sign-in form (the
   * dashboard by default), or the form itself. A full address for a server of the test's own. */
  from?: string;
  /** The page the account lands on when it is not the dashboard (a valet's is `/valet`). */
  landing?: RegExp;
  /** False when only the staff API is used afterwards: the dashboard is not waited on to hydrate
   * (it never does in a context without JavaScript). */
  hydrate?: boolean;
}

/** Signs in through the sign-in form, as staff do: from `from`, which must show the form, then on
 * the dashboard (its heading, hydrated unless `hydrate` is false) or on `landing`. Returns the session's CSRF token for the
 * staff API, read from the dashboard's props (empty on another landing page). */
export async function signIn(page: Page, options: SignInOptions = {}): Promise<string> {
  const { account = STAFF, from = "/admin", landing, hydrate = true } = options;
  await page.goto(from);
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (landing) {
    await expect(page).toHaveURL(landing);
    return "";
  }
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
  if (hydrate) await hydrated(page);
  return /"csrf":"([^"]+)"/.exec(await page.content())?.[1] ?? "";
}

/** An order as a customer types it into the public form. */
export interface OrderEntry {
  customer: string;
  phone: string;
  location: string;
  service: string;
  kg: string;
}

/** Places an order through the public form as a customer would; returns its reference. */
export async function placeOrder(page: Page, order: OrderEntry): Promise<string> {
  await page.goto("/order");
  await hydrated(page);
  await page.getByLabel("Full Name").fill(order.customer);
  await page.getByLabel("Phone Number").fill(order.phone);
  await page.getByLabel("Location").fill(order.location);
  await page.getByLabel("Service Type").selectOption(order.service);
  await page.getByLabel("Quantity (kg)").fill(order.kg);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL(/\/confirmation\?ref=[A-Z0-9]{8}$/);
  return new URL(page.url()).searchParams.get("ref") ?? "";
}

/** The password of the accounts `startOwnServer` creates. */
export const OWN_SERVER_PASSWORD = "Browser-Test-Pass-2026";

/**
 * A server of a test file's own (for a schedule of its own) on `port`: the debug build on a new
 * SQLite database, with `accounts` (`[email, role]`, password `OWN_SERVER_PASSWORD`) created first
 * and `env` on top of the usual settings, started with `args` (`serve` unless given: `serve --demo`
 * for the demo shop). Resolves once it answers /healthz; stop it with `kill("SIGTERM")`.
 */
export async function startOwnServer(options: {
  port: number;
  name: string;
  env: Record<string, string>;
  accounts: [string, string][];
  args?: string[];
}): Promise<ChildProcess> {
  const binary = path.resolve("../target/debug/laundry");
  const folder = mkdtempSync(path.join(tmpdir(), `laundry-${options.name}-`));
  const env = {
    ...process.env,
    LAUNDRY_ADDR: `127.0.0.1:${options.port}`,
    LAUNDRY_FRONTEND_DIR: "dist",
    DATABASE_URL: `sqlite://${path.join(folder, "laundry.db")}`,
    LAUNDRY_PHOTOS_DIR: path.join(folder, "photos"),
    RUST_LOG: "warn",
    ...options.env,
  };
  for (const [email, role] of options.accounts) {
    execFileSync(binary, ["admin", "create", "--email", email, "--role", role], {
      env,
      input: `${OWN_SERVER_PASSWORD}\n`,
    });
  }
  const server = spawn(binary, options.args ?? ["serve"], { env, stdio: "inherit" });
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${options.port}/healthz`).catch(() => null))?.status ?? 0, {
      timeout: 30_000,
    })
    .toBe(200);
  return server;
}

/** A text the fake Africa's Talking received. */
export interface Text {
  to: string;
  message: string;
}

/** An M-PESA prompt the fake Daraja accepted. */
export interface Prompt {
  /** Daraja's CheckoutRequestID, which its callback names. */
  checkout: string;
  /** `2547…`, as Daraja takes it. */
  phone: string;
  /** KSh asked. */
  amount: number;
  /** The order ID (`AccountReference`). */
  account: string;
  /** `null` while it waits on the phone; then `paid`, `cancelled` or `timed out`. */
  ended: string | null;
}

/** A server of a test file's own whose providers are the fakes it serves itself. */
export interface FakedServer {
  base: string;
  /** Every text the fake Africa's Talking received, oldest first. */
  texts: () => Promise<Text[]>;
  /** The text that contains `words`, once it has arrived (20 s at most). */
  textWith: (words: string) => Promise<Text>;
  /** The prompts the fake Daraja accepted, oldest first. */
  prompts: () => Promise<Prompt[]>;
  /** Pays `prompt` on "the customer's phone" with the M-PESA code `receipt`: the fake sends
   * M-PESA's callback to the server, which must answer 200. */
  payPrompt: (prompt: Prompt, receipt: string) => Promise<void>;
  stop: () => void;
}

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * `startOwnServer` with the server's own fakes of Africa's Talking, Daraja and the mail API
 * (`laundry serve --fake-providers`, the demo's and the API tests' fakes: docs/testing.md), on a
 * free port: texts and prompts are read from `/dev/fakes/…`, and a prompt is paid as the phone
 * would pay it. `staff` is signed in as staff, `accounts` have their roles; all take
 * `OWN_SERVER_PASSWORD`.
 */
export async function startServerWithFakes(
  name: string,
  staff: { email: string },
  options: { accounts?: { email: string; role: string }[]; env?: Record<string, string> } = {},
): Promise<FakedServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startOwnServer({
    port,
    name,
    env: { LAUNDRY_BASE_URL: base, LAUNDRY_SUBMISSIONS_PER_HOUR: "10000", ...options.env },
    accounts: [
      [staff.email, "staff"],
      ...(options.accounts ?? []).map(({ email, role }): [string, string] => [email, role]),
    ],
    args: ["serve", "--fake-providers"],
  });
  const read = async <T>(what: string): Promise<T> => (await (await fetch(`${base}/dev/fakes/${what}`)).json()) as T;
  const texts = () => read<Text[]>("texts");
  return {
    base,
    texts,
    async textWith(words: string): Promise<Text> {
      let found: Text | undefined;
      await expect
        .poll(async () => (found = (await texts()).find((text) => text.message.includes(words))), { timeout: 20_000 })
        .toBeTruthy();
      return found ?? { to: "", message: "" };
    },
    prompts: () => read<Prompt[]>("prompts"),
    async payPrompt(prompt: Prompt, receipt: string) {
      const answer = await fetch(`${base}/dev/fakes/prompts/${prompt.checkout}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ receipt }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { said: string }).said).toContain("answered 200");
    },
    stop: () => server.kill("SIGTERM"),
  };
}
