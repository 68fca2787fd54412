import type { ApiReferenceReact } from "@scalar/api-reference-react";
import type { ComponentProps } from "react";

export type ScalarConfiguration = ComponentProps<typeof ApiReferenceReact>["configuration"];

/** Where the page reads the document: the app's own route, with no session needed. */
export const DOCUMENT_PATH = "/api/openapi.json";

/**
 * Scalar's settings for /api-docs. Its defaults reach scalar.com, and each is turned off here:
 * its fonts (fonts.scalar.com), the client's page views (api.scalar.com), and, on a local
 * address such as a demo's 127.0.0.1, the agent chat and the developer toolbar (registry,
 * dashboard and upload to scalar.com). No proxyUrl is given, so nothing is sent through
 * proxy.scalar.com. The page's connect-src 'self' would refuse any of them besides.
 *
 * No "try it" client: in the browser it sends the person's session cookie, so a write would be
 * one click with none of the review step's deliberate act, and a pasted token is a 400 beside
 * the cookie (one request, one caller). The curl samples say how a script calls.
 */
export function scalarConfiguration({ origin, dark }: { origin: string; dark: boolean }): ScalarConfiguration {
  return {
    url: DOCUMENT_PATH,
    // The document names no server: the samples call the dashboard they were read on.
    servers: [{ url: origin }],
    // A script's credential in the samples: a personal API token, not the browser's cookie.
    authentication: { preferredSecurityScheme: "apiToken" },
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    showDeveloperTools: "never",
    hideClientButton: true,
    hideTestRequestButton: true,
    // Exported from what was loaded: "direct" would fetch the document again.
    documentDownloadType: "json",
    // The header's theme choice rules: Scalar's own toggle and memory would disagree with it.
    hideDarkModeToggle: true,
    forceDarkModeState: dark ? "dark" : "light",
  };
}
