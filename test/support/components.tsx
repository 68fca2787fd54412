import { TextDecoder, TextEncoder } from "node:util";
import { cleanup, render, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { inProcessDashboard, type InProcessDashboard } from "./dashboard";
import type { Role } from "@/lib/shared/roles";

/**
 * The components project's helpers (test/components, each file under
 * `// @vitest-environment jsdom`): a form rendered in jsdom as its page renders it, signed in,
 * its requests answered by the dashboard's own route handlers in this process
 * (test/support/in-process.ts), so the profiles, balances and refusals it shows are the back
 * end's. What only a browser shows (layout, focus across a real page, the keyboard's own
 * behaviour, axe) stays with the e2e project.
 */

/**
 * jsdom's globals come from a realm of its own, and its typed arrays are not Node's: next-auth's
 * jose, which makes the session, checks what it encrypts against Node's Uint8Array. Set for each
 * render: vitest sets jsdom's globals again for each file, in a worker that keeps this module.
 */
function nodeTypedArrays(): void {
  Object.assign(globalThis, {
    TextEncoder,
    TextDecoder,
    Uint8Array: Object.getPrototypeOf(Buffer.prototype).constructor,
  });
}

/** jsdom lays nothing out, so no element's size ever changes: an observer never called is true to it. */
class NoLayoutResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

/** Waits until a sending button's pause after it appears (REVIEW_ARMING_MS) is over: a click now sends. */
export async function armed(button: HTMLElement): Promise<HTMLElement> {
  await waitFor(() => expect(button.getAttribute("data-armed")).toBe("true"));
  return button;
}

export interface RenderedAs {
  /** The in-process dashboard answering the components' requests. */
  d: InProcessDashboard;
  /** Every request the components sent that would change something, as "METHOD path". */
  writes: () => string[];
  /** Unmounts, gives fetch back, and closes the dashboard: after each test (once, however often called). */
  close: () => Promise<void>;
}

/**
 * Stands in for the network on a request, as Playwright's page.route does: answers it, or
 * passes it on to the dashboard (`pass`). A connection lost is a thrown TypeError, as a
 * browser's fetch rejects.
 */
export type Route = (request: { method: string; url: URL }, pass: () => Promise<Response>) => Promise<Response>;

/**
 * Renders `ui` inside the signed-in pages' providers (components/providers.tsx), as `role`, its
 * requests served by a fresh in-process dashboard (through `options.route` when given).
 */
export async function renderAs(role: Role, ui: ReactNode, options: { route?: Route } = {}): Promise<RenderedAs> {
  nodeTypedArrays();
  globalThis.ResizeObserver ??= NoLayoutResizeObserver;
  const d = await inProcessDashboard();
  const cookie = d.as[role].cookie();
  const writes: string[] = [];
  const original = globalThis.fetch;
  // The page's fetch, with what the browser adds: the session's cookie, and the page's Origin on
  // a write. jsdom's AbortSignal is not the one the route handlers' Request takes; no test here
  // aborts a request.
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), d.url);
    const { signal: _, headers, ...rest } = init;
    const write = (rest.method ?? "GET") !== "GET";
    if (write) writes.push(`${rest.method} ${url.pathname}`);
    const sent = { ...(headers as Record<string, string>), cookie, ...(write ? { origin: d.url } : {}) };
    const pass = () => d.app.fetch(url.toString(), { ...rest, headers: sent });
    return options.route ? options.route({ method: rest.method ?? "GET", url }, pass) : pass();
  }) as typeof fetch;
  render(<Providers user={`${role}@example.com`}>{ui}</Providers>);
  let closed: Promise<void> | undefined;
  return {
    d,
    writes: () => [...writes],
    close: () =>
      (closed ??= (async () => {
        cleanup();
        globalThis.fetch = original;
        await d.dispose();
      })()),
  };
}
