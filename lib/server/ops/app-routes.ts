import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The app's route a path belongs to, as the build names it ("/api/approvals/[id]/approve"):
 * log lines group by it without one value per id. Read from the build's routes manifest, which
 * `next start` and the standalone folder both carry; null for a path no route takes (a static
 * file, a 404) and wherever there is no manifest.
 */

interface ManifestRoute {
  page: string;
  regex: string;
}

type Matcher = { page: string; pattern: RegExp }[];

export function routeMatcher(manifest: { staticRoutes?: ManifestRoute[]; dynamicRoutes?: ManifestRoute[] }): Matcher {
  // Static routes first: "/api/approvals" before "/api/approvals/[id]" could ever match.
  return [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])].map((r) => ({
    page: r.page,
    pattern: new RegExp(r.regex),
  }));
}

export const matchRoute = (matcher: Matcher, pathname: string): string | null =>
  matcher.find((r) => r.pattern.test(pathname))?.page ?? null;

let loaded: Matcher | undefined;

/** The route of `pathname` in this server's build (the manifest is read once). */
export function appRouteOf(pathname: string): string | null {
  loaded ??= readManifest();
  return matchRoute(loaded, pathname);
}

function readManifest(): Matcher {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  try {
    return routeMatcher(JSON.parse(readFileSync(join(process.cwd(), distDir, "routes-manifest.json"), "utf8")));
  } catch {
    return [];
  }
}
