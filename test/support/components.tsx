import { TextDecoder, TextEncoder } from "node:util";
import { cleanup, configure, render, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { NoticeToasts } from "@/components/ui/toasts";
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
 * How long findBy… and waitFor wait for a state before failing: Testing Library's 1 s is too
 * short for a request answered by the back end on a busy machine (three workers on two cores).
 * A state that comes ends the wait at once; the test's own time limit still bounds it.
 */
configure({ asyncUtilTimeout: 10_000 });

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
  /** Every request the components sent but GETs, as "METHOD path": a review's preview (a POST) among them. */
  writes: () => string[];
  /** Unmounts, gives fetch back, and closes its own dashboard: after each test (once, however often called). */
  close: () => Promise<void>;
}

/**
 * Stands in for the network on a request, as Playwright's page.route does: answers it, or
 * passes it on to the dashboard (`pass`). A connection lost is a thrown TypeError, as a
 * browser's fetch rejects.
 */
export type Route = (request: { method: string; url: URL }, pass: () => Promise<Response>) => Promise<Response>;

/**
 * An in-process dashboard a file keeps across its renders (RenderOptions.dashboard), made in
 * jsdom as renderAs makes its own. Close it with dispose() after the file.
 */
export async function keptDashboard(): Promise<InProcessDashboard> {
  nodeTypedArrays();
  return inProcessDashboard();
}

export interface RenderOptions {
  /** Stands in for the network on the requests it chooses. */
  route?: Route;
  /**
   * The dashboard to answer: one the file keeps across renders (its records, the people's
   * totals), left open by close(). By default, a fresh one of this render's own.
   */
  dashboard?: InProcessDashboard;
}

/** The test whose renders the browser's storage belongs to (freshStorageEachTest). */
let storageOf: string | undefined;

/**
 * Each test starts with the browser's storage empty, as a browser of its own: what a person chose
 * (the ticket's profile, lib/client/ticket-profile.ts) stays in jsdom's localStorage, which the
 * files a worker runs share (isolate: false). Left there, entry.test.tsx's trader chose a profile
 * that order-ticket.test.tsx's then started from, where it expected none. Within a test it is
 * kept: a render again is the same browser reloaded.
 */
function freshStorageEachTest(): void {
  const { testPath, currentTestName } = expect.getState();
  const test = `${testPath} > ${currentTestName}`;
  if (storageOf === test) return;
  storageOf = test;
  localStorage.clear();
  sessionStorage.clear();
}

/**
 * Renders `ui` inside the signed-in pages' providers (components/providers.tsx), with the
 * header's toasts, as `role`, its requests served by an in-process dashboard (through
 * `options.route` when given).
 */
export async function renderAs(role: Role, ui: ReactNode, options: RenderOptions = {}): Promise<RenderedAs> {
  nodeTypedArrays();
  freshStorageEachTest();
  globalThis.ResizeObserver ??= NoLayoutResizeObserver;
  const d = options.dashboard ?? (await inProcessDashboard());
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
  // The header's toasts too, as every signed-in page has them.
  render(
    <Providers user={`${role}@example.com`}>
      <NoticeToasts />
      {ui}
    </Providers>,
  );
  let closed: Promise<void> | undefined;
  return {
    d,
    writes: () => [...writes],
    close: () =>
      (closed ??= (async () => {
        cleanup();
        globalThis.fetch = original;
        if (!options.dashboard) await d.dispose();
      })()),
  };
}
