import { describe, expect, it } from "vitest";
import { DOCUMENT_PATH, scalarConfiguration } from "@/components/api-docs/scalar-configuration";

/**
 * /api-docs's Scalar settings (issue 28): every default of Scalar's that reaches another origin
 * is off, and what it calls is the dashboard itself. The page's e2e test (test/e2e/api-docs.test.ts)
 * watches the requests; this names each setting that keeps them home.
 */
describe("the API reference's settings", () => {
  const configuration = scalarConfiguration({ origin: "https://desk.example.com", dark: false }) as Record<
    string,
    unknown
  >;

  it("reads the app's own document and names the app as the samples' server", () => {
    expect(configuration.url).toBe(DOCUMENT_PATH);
    expect(DOCUMENT_PATH).toBe("/api/openapi.json");
    expect(configuration.servers).toEqual([{ url: "https://desk.example.com" }]);
  });

  it("loads no fonts, sends no telemetry, has no agent chat, toolbar or proxy", () => {
    expect(configuration.withDefaultFonts).toBe(false);
    expect(configuration.telemetry).toBe(false);
    expect(configuration.agent).toEqual({ disabled: true });
    expect(configuration.showDeveloperTools).toBe("never");
    expect(configuration).not.toHaveProperty("proxyUrl");
    expect(configuration).not.toHaveProperty("proxy");
  });

  it("has no try-it client, and shows a script's token in the samples", () => {
    expect(configuration.hideClientButton).toBe(true);
    expect(configuration.hideTestRequestButton).toBe(true);
    expect(configuration.authentication).toEqual({ preferredSecurityScheme: "apiToken" });
  });

  it("follows the header's theme, with no toggle of its own", () => {
    expect(configuration.hideDarkModeToggle).toBe(true);
    expect(configuration.forceDarkModeState).toBe("light");
    expect(scalarConfiguration({ origin: "https://desk.example.com", dark: true })).toMatchObject({
      forceDarkModeState: "dark",
    });
  });
});
