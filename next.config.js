// @ts-check
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Next loads this file as CommonJS.
const { networkInterfaces } = require("node:os");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above.
const { PHASE_PRODUCTION_BUILD } = require("next/constants");

const isDev = process.env.NODE_ENV !== "production";

/**
 * Hosts whose pages may use the dev server's assets and HMR socket. Next allows only
 * localhost by default, so a page opened at 127.0.0.1 or at the network address `next dev`
 * prints never hydrates (and sign-in silently fails). Hostnames only, as Next matches them:
 * no scheme, no port, IPv6 in brackets.
 */
function devOrigins() {
  const hosts = new Set(["localhost", "127.0.0.1", "[::1]"]);
  try {
    if (process.env.NEXTAUTH_URL) hosts.add(new URL(process.env.NEXTAUTH_URL).hostname);
  } catch {
    // A bad NEXTAUTH_URL is reported by the server's own configuration check.
  }
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family === "IPv4") hosts.add(a.address);
      // Link-local addresses (with a scope id) cannot be written in a browser's address bar.
      else if (a.family === "IPv6" && !a.scopeid) hosts.add(`[${a.address}]`);
    }
  }
  return [...hosts];
}

// Pages and API answers get their Content-Security-Policy (a fresh nonce each) and HSTS from
// proxy.ts; the build's static files, which the proxy skips, get this fixed one.
const staticFilesPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/**
 * Turbopack keeps its work on disk for the next build (a rebuild here takes 13 s instead of 35)
 * and the next dev start. Writing it costs a cold build about a third more (39 s against 27 to
 * 31 s, 72 against 48 to 58 CPU-s). A CI run (CI=true) builds once and throws it away, and so
 * does `npm test` in a checkout with none yet (scripts/run-tests.mjs); the dev-server test's
 * folder goes with each build: they ask for none (TURBOPACK_CACHE=off).
 */
const turbopackCache = process.env.CI !== "true" && process.env.TURBOPACK_CACHE !== "off";

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A test's dev server builds apart (NEXT_DIST_DIR) from the production build other tests run.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  allowedDevOrigins: isDev ? devOrigins() : [],
  poweredByHeader: false,
  // No next/image here: the image optimizer's sharp (libvips, about 20 MB) stays out of that folder.
  // "next-server" is the key Next matches for its own server's trace (next/dist/build/collect-build-traces.js).
  outputFileTracingExcludes: { "next-server": ["**/node_modules/sharp/**/*", "**/node_modules/@img/**/*"] },
  // The build does not type-check a second time: `npm run typecheck` (tsc, tests included) is the
  // check, run by `npm test` beside the tests and by `npm run check`. Next still reads the tsconfig
  // named here; this one extends tsconfig.json, and Next rewrites no tsconfig that extends (given
  // tsconfig.json itself, a test's dev server added its NEXT_DIST_DIR's types to the include).
  typescript: { ignoreBuildErrors: true, tsconfigPath: "tsconfig.build.json" },
  // Native and server-only packages stay out of the bundle and load from node_modules.
  serverExternalPackages: ["better-sqlite3", "pg", "kysely"],
  // proxy.ts refuses bodies past their route's cap (64 KiB, a batch's file 1 MiB); a body of
  // unknown length is held only this far to measure it, and a route would get no more of it.
  experimental: {
    proxyClientMaxBodySize: "2mb",
    turbopackFileSystemCacheForBuild: turbopackCache,
    turbopackFileSystemCacheForDev: turbopackCache,
  },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/_next/static/:path*", headers: [{ key: "Content-Security-Policy", value: staticFilesPolicy }] },
    ];
  },
};

/**
 * The build also writes .next/standalone: the server and the node_modules it needs, native
 * better-sqlite3 and pg included, shippable alone (README: "One folder to ship"). Set for the
 * build only: `next start` serves the same build but warns when it sees the setting.
 * @param {string} phase
 */
module.exports = (phase) => ({ ...nextConfig, output: phase === PHASE_PRODUCTION_BUILD ? "standalone" : undefined });
