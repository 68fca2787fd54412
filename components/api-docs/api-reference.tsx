"use client";

import dynamic from "next/dynamic";

/**
 * The reference's code (Scalar, with Vue inside) is a chunk of its own, fetched from the app
 * when this page opens, and never run on the server: Scalar draws in the browser only.
 */
const ScalarReference = dynamic(
  async () => {
    // Scalar checks its settings with zod, whose first object parse probes for eval
    // (`Function("")`) to compile a faster parser. This page's CSP has no 'unsafe-eval': the
    // probe is refused and reported as a violation, and zod parses without it all the same.
    // Said before Scalar's code runs, the probe is skipped; nothing else changes, eval being
    // refused anyway.
    (await import("zod")).config({ jitless: true });
    return import("./scalar-reference");
  },
  {
    ssr: false,
    // A screen's height kept for the reference, so nothing below it moves when it arrives.
    loading: () => <div aria-busy="true" aria-label="The API reference" className="min-h-screen" />,
  },
);

export function ApiReference() {
  return <ScalarReference />;
}
