import type { Server } from "node:http";
import Provider, { type Configuration } from "oidc-provider";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, signIn } from "../support/app-server";
import { launchBrowser } from "../support/browser";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * Single sign-on against a certified OpenID provider run in-process (`oidc-provider`, with its
 * development login and consent pages), through the browser as a person signs in. The provider's
 * accounts stand for the organisation's directory: what each ID token says is what the dashboard
 * must accept or refuse.
 */

const CLIENT = { client_id: "treasury-dashboard", client_secret: "an-oidc-client-secret-for-tests" };

/** The directory: login name to the claims the provider vouches for. */
const ACCOUNTS: Record<string, Record<string, unknown>> = {
  dana: { email: "dana@corp.example", email_verified: true, name: "Dana Trader", role: "trader" },
  rolf: { email: "rolf@corp.example", email_verified: true, name: "Rolf Nobody" },
  vera: { email: "vera@corp.example", email_verified: false, name: "Vera Unverified", role: "trader" },
  mia: { email: "Mia.Case@Corp.Example", email_verified: true, name: "Mia Case", role: "viewer" },
  // Another account at the same provider that claims Dana's address (in other letters).
  mallory: { email: "DANA@corp.example", email_verified: true, name: "Mallory", role: "admin" },
};

let app: SharedApp;
let browser: Browser;
let provider: Server;

beforeAll(async () => {
  // The issuer's address goes into the app's environment, the app's into the provider's client.
  const issuerPort = await freePort();
  const issuer = `http://127.0.0.1:${issuerPort}`;
  [app, browser] = await Promise.all([
    // The OIDC settings are the runtime's: the lane's app is reset to sign in with this provider.
    resetApp({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.client_id, OIDC_CLIENT_SECRET: CLIENT.client_secret }),
    launchBrowser(),
  ]);
  const configuration: Configuration = {
    clients: [{ ...CLIENT, redirect_uris: [`${app.url}/api/auth/callback/oidc`] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "role"] },
    // The claims go in the ID token itself: next-auth reads the profile from it.
    conformIdTokenClaims: false,
    async findAccount(_ctx, id) {
      const claims = ACCOUNTS[id];
      return claims && { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
  };
  const oidc = new Provider(issuer, configuration);
  await new Promise<void>((resolve) => {
    provider = oidc.listen(issuerPort, "127.0.0.1", resolve);
  });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

/** From the dashboard's sign-in page through the provider's login and consent, back to the dashboard. */
async function signInWithSso(login: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${app.url}/signin`);
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await page.waitForURL((url) => url.origin !== app.url);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => url.origin === app.url && !url.pathname.startsWith("/api/auth"));
  return page;
}

/** The audit trail's sign-in family, as an admin reads it. */
async function signInAudit(): Promise<
  { action: string; subject: string | null; ip: string | null; detail: Record<string, unknown> }[]
> {
  const admin = await signIn(app, "admin@example.com");
  const res = await admin.call("GET", "/api/audit?event=sign-in&limit=200");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

describe("single sign-on through an OpenID provider", () => {
  it("signs a person in with the role their ID token's role claim names", async () => {
    const page = await signInWithSso("dana");
    expect(new URL(page.url()).pathname).toBe("/orders");
    await expect.poll(() => page.getByTestId("role").textContent()).toContain("trader");
    // The session works for the API too, as that role: a trader reads orders, not the audit trail.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const me = await fetch(`${app.url}/api/auth/session`, { headers: { Cookie: cookie } });
    expect(await me.json()).toMatchObject({ user: { email: "dana@corp.example", role: "trader" } });
    const audit = await fetch(`${app.url}/api/audit`, { headers: { Cookie: cookie, Origin: app.url } });
    expect(audit.status).toBe(403);
    const entries = await signInAudit();
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: "sign-in",
        subject: "dana@corp.example",
        ip: "127.0.0.1",
        detail: { provider: "oidc" },
      }),
    );
    await page.close();
  });

  /** The signed-in session's email, as /api/auth/session names it. */
  const sessionEmail = async (page: Page) => {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${app.url}/api/auth/session`, { headers: { Cookie: cookie } });
    return ((await res.json()) as { user?: { email?: string } }).user?.email;
  };

  // Issue 16, finding 13: identities are issuer + sub, emails compared in lower case.
  it("compares emails in lower case: the person is named by the address in lower case", async () => {
    const page = await signInWithSso("mia");
    expect(await sessionEmail(page)).toBe("mia.case@corp.example");
    await page.close();
  });

  it("keeps a person who the provider renames as the same person (issuer + sub)", async () => {
    await (await signInWithSso("dana")).close();
    const dana = ACCOUNTS.dana!;
    const before = dana.email;
    dana.email = "dana.renamed@corp.example";
    try {
      const page = await signInWithSso("dana");
      expect(await sessionEmail(page)).toBe("dana@corp.example");
      await page.close();
    } finally {
      dana.email = before;
    }
  });

  it("refuses another account of the provider claiming a bound address, in whatever letters", async () => {
    await (await signInWithSso("dana")).close();
    const page = await signInWithSso("mallory");
    expect(new URL(page.url()).pathname).toBe("/signin");
    await expect(page.locator("#signin-error").textContent()).resolves.toContain("another single sign-on account");
    expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("session-token"))).toBe(false);
    const refusal = (await signInAudit()).find(
      (e) => e.action === "sign-in.failed" && e.detail.reason === "the email belongs to another identity",
    );
    expect(refusal).toMatchObject({ subject: "dana@corp.example", detail: { provider: "oidc" } });
    await page.close();
  });

  it.each([
    { case: "with no role claim", login: "rolf", shown: "no dashboard role", reason: "no known role" },
    {
      case: "whose email the provider has not verified, even with a role",
      login: "vera",
      shown: "verified email address",
      reason: "the ID token's email is not verified",
    },
  ])("refuses an identity $case, saying why on the sign-in page and in the audit trail", async (c) => {
    const page = await signInWithSso(c.login);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await expect(page.locator("#signin-error").textContent()).resolves.toContain(c.shown);
    expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("session-token"))).toBe(false);
    const refusal = (await signInAudit()).find((e) => e.subject === String(ACCOUNTS[c.login]!.email));
    expect(refusal).toMatchObject({ action: "sign-in.failed", detail: { provider: "oidc", reason: c.reason } });
    await page.close();
  });
});
