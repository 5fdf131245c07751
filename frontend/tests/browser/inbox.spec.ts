// The dashboard's Texts tab (the inbox) in a real browser: a text from a number without an order
// waits there unanswered, with an unread count on the tab; staff open it, are told what is wrong
// with an empty or too long answer, and answer it by text; at phone and desktop widths, with
// axe-core's scan.
import { expect, type Page, test } from "@playwright/test";
import { signIn, STAFF, violations, watchConsole } from "./support";

const SECRET = "browser-test-sms-secret-0123456789";

/** Africa's Talking's callback for a text. */
async function textIn(page: Page, id: string, from: string, text: string) {
  const response = await page.request.post(`/hooks/sms/incoming/${SECRET}`, {
    form: { id, from, to: "22384", text, date: "2026-11-25 14:03:11", linkId: "x" },
  });
  expect(response.status()).toBe(200);
}

test.describe("the inbox", () => {
  test.use({ bypassCSP: true });
  for (const width of [390, 1280]) {
    test(`staff read a stranger's text and answer it by text, at ${width}px`, async ({ page }) => {
      const problems = watchConsole(page);
      await page.setViewportSize({ width, height: 900 });
      const from = `+2547220003${width === 390 ? "90" : "12"}`;
      const question = `Do you clean curtains? (${width})`;
      await textIn(page, `ATXid_browser_${width}`, from, question);
      await signIn(page);

      const tab = page.getByRole("tab", { name: /^Texts \d+ unread$/ });
      await tab.click();
      await expect(page).toHaveURL(/tab=inbox/);
      const card = page.getByRole("article", { name: `Text from ${from}` });
      await expect(card).toContainText(question);
      await expect(card).toContainText("No automatic reply: no order from this number in recent months");
      await expect(card).toContainText("No order from this number.");
      expect(await violations(page)).toEqual([]);

      // Opening the answer form marks the text read.
      await card.getByText("Answer by text").click();
      await expect(card.getByText("Read", { exact: true })).toBeVisible();
      const answer = card.getByLabel(`Answer to ${from}`);
      await card.getByRole("button", { name: "Send answer" }).click();
      await expect(card.getByRole("alert")).toHaveText("Write the answer: it cannot be empty.");
      await answer.fill("a".repeat(460));
      await expect(card.getByText("460 of 459 characters (4 of 3 texts)")).toBeVisible();
      await card.getByRole("button", { name: "Send answer" }).click();
      await expect(card.getByRole("alert")).toContainText("at most 3 texts, that is 459 characters");
      expect(await violations(page)).toEqual([]);

      await answer.fill("Yes: KSh 300 a panel, picked up tonight if you order before 5pm.");
      await card.getByRole("button", { name: "Send answer" }).click();
      await expect(card.getByText("Handled", { exact: true })).toBeVisible();
      await expect(card).toContainText(`Answered by ${STAFF.email}`);
      await expect(card).toContainText("Yes: KSh 300 a panel");
      await expect(answer).toHaveValue("");

      // Nothing widens the page (the tabs' row scrolls on its own).
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: test.info().outputPath(`inbox-${width}.png`), fullPage: true });
      expect(await violations(page)).toEqual([]);
      // The two refused answers are 422s the browser reports; nothing else.
      expect(problems.filter((problem) => !problem.includes("status of 422"))).toEqual([]);
    });
  }
});
