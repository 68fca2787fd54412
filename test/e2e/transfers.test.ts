import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadText, keptPage, launchBrowser, signInAs } from "../support/browser";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * A transfer sent from the form in a browser and followed to COMPLETED. The form's rules, each
 * refused on its field with nothing sent, are test/components/transfer-form.test.tsx's.
 */

/** Legs stay PENDING this long on the service's clock: until the test moves it, so PENDING is seen for certain. */
const TRANSFER_SETTLE_MS = 60_000;

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([
    resetApp({ SANDBOX_TRANSFER_SETTLE_MS: String(TRANSFER_SETTLE_MS) }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
});

async function opsPage() {
  const page = await keptPage(browser, { width: 1600, height: 1200 });
  await signInAs(page, app.url, "ops@example.com");
  await page.getByRole("link", { name: "Transfers" }).click();
  await page.waitForURL(/\/transfers$/);
  const form = page.getByRole("form", { name: "Internal transfer" });
  await expect.poll(() => form.getByLabel("From profile").locator("option").count()).toBeGreaterThan(1);
  return { page, form };
}

describe("the transfer form", () => {
  it("sends a transfer, shows it PENDING and then COMPLETED with both legs, and exports it", async () => {
    const { page, form } = await opsPage();
    await form.getByLabel("From profile").selectOption({ label: "Treasury" });
    await form.getByLabel("To profile").selectOption({ label: "Settlement" });
    await form.getByLabel("Asset").selectOption("USD");
    await form.getByLabel("Amount", { exact: true }).fill("1234.56");
    await form.getByRole("button", { name: "Review transfer" }).click();
    expect(await form.getByTestId("transfer-review").textContent()).toBe(
      "Move 1,234.56 USD from Treasury to Settlement.",
    );
    await form.getByRole("button", { name: "Confirm and send" }).click();
    const result = form.getByTestId("transfer-result");
    await result.waitFor();
    expect(await result.textContent()).toMatch(/DEBIT.*PENDING/);
    const groupId = (await result.locator("dd").nth(1).textContent())!.trim();
    expect(groupId).toMatch(/^[0-9a-f-]{36}$/);

    const table = page.getByRole("table", { name: /Transfers/ });
    const row = table.locator("tr", { has: page.locator(`[title="${groupId}"]`) });
    await expect.poll(() => row.textContent()).toMatch(/PENDING/);
    await expect.poll(() => row.textContent()).toContain("ops@example.com");
    // The service settles the legs once its clock has moved past the settling time.
    await app.control.advance(TRANSFER_SETTLE_MS);
    await expect.poll(() => row.textContent()).toMatch(/COMPLETED/);
    await row.getByRole("button", { name: /legs of transfer/ }).click();
    await expect.poll(() => table.textContent()).toMatch(/DEBIT[\s\S]*CREDIT|CREDIT[\s\S]*DEBIT/);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: /Export CSV/ }).click();
    const csv = await downloadText(await download);
    const lines = csv
      .trim()
      .split(/\r\n/)
      .filter((l) => l.includes(groupId));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.join("\n")).toContain("1234.56");
    expect(lines.join("\n")).toContain("COMPLETED");
    await page.close();
  });
});
