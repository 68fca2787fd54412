/**
 * First-load JavaScript per route, gzip, from the build output (`npm run build` first):
 * Next writes each route's first-load chunks to .next/diagnostics/route-bundle-stats.json;
 * each chunk is gzipped here as a server would send it.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const GOAL_KB = 180;
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

console.log("route".padEnd(24), "first-load JS (raw kB)".padStart(24), "gzip kB".padStart(10));
for (const s of [...stats].sort((a, b) => a.route.localeCompare(b.route))) {
  const total = s.firstLoadChunkPaths.reduce((sum, p) => sum + gz(p), 0);
  const mark =
    s.route === GOAL_ROUTE
      ? total / 1024 <= GOAL_KB
        ? `  <= ${GOAL_KB} kB goal: met`
        : `  > ${GOAL_KB} kB goal: MISSED`
      : "";
  console.log(s.route.padEnd(24), kb(s.firstLoadUncompressedJsBytes).padStart(24), kb(total).padStart(10) + mark);
}
