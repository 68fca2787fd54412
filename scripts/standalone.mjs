/**
 * The last step of `npm run build`: completes Next's standalone output (.next/standalone) into
 * one folder that runs alone. Next leaves out `public` and `.next/static` (meant for a CDN);
 * the dashboard serves them itself, so they are copied in, as Next's `output` docs describe:
 *   cp -r public .next/standalone/ && cp -r .next/static .next/standalone/.next/
 * Plain Node (no TypeScript runner), so the copy is the same on every platform.
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";

const folder = join(".next", "standalone");

if (!existsSync(join(folder, "server.js"))) {
  console.error(`${folder}/server.js is missing: next.config.js must keep output: "standalone".`);
  process.exit(1);
}
for (const [from, to] of [
  ["public", join(folder, "public")],
  [join(".next", "static"), join(folder, ".next", "static")],
]) {
  rmSync(to, { recursive: true, force: true });
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
console.log(`${folder}: ready to ship (node ${join(folder, "server.js")}).`);
