/**
 * First-load JavaScript per route, gzip, from the build output (`npm run build` first):
 * Next writes each route's first-load chunks to .next/diagnostics/route-bundle-stats.json;
 * each chunk is gzipped here as a server would send it. The order ticket's page has a budget
 * (GOAL_KB) and a goal: 1.2 times the bare page (`/`, Next and React alone).
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const GOAL_KB = 160;
const BARE_ROUTE = "/";
const GOAL_OF_BARE = 1.2;
const GOAL_ROUTE = "/orders";

interface RouteStats {
  route: string;
  firstLoadUncompressedJsBytes: number;
  firstLoadChunkPaths: string[];
}

const stats = JSON.parse(readFileSync(".next/diagnostics/route-bundle-stats.json", "utf8")) as RouteStats[];
const gzipped = new Map<string, number>();
const gz = (path: string) => {
  if (!gzipped.has(path)) gzipped.set(path, gzipSync(readFileSync(path), { level: 6 }).length);
  return gzipped.get(path)!;
};
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const totals = new Map(stats.map((s) => [s.route, s.firstLoadChunkPaths.reduce((sum, p) => sum + gz(p), 0)]));

console.log("route".padEnd(24), "first-load JS (raw kB)".padStart(24), "gzip kB".padStart(10));
for (const s of [...stats].sort((a, b) => a.route.localeCompare(b.route))) {
  const total = totals.get(s.route)!;
  const mark =
    s.route === GOAL_ROUTE
      ? total / 1024 <= GOAL_KB
        ? `  <= ${GOAL_KB} kB budget: met`
        : `  > ${GOAL_KB} kB budget: MISSED`
      : "";
  console.log(s.route.padEnd(24), kb(s.firstLoadUncompressedJsBytes).padStart(24), kb(total).padStart(10) + mark);
}

const bare = totals.get(BARE_ROUTE)!;
const ratio = totals.get(GOAL_ROUTE)! / bare;
console.log(
  `${GOAL_ROUTE} is ${ratio.toFixed(2)}x the bare page (${kb(bare)} kB): ` +
    (ratio <= GOAL_OF_BARE ? `within the ${GOAL_OF_BARE}x goal` : `past the ${GOAL_OF_BARE}x goal`),
);
