/**
 * `npm run start:standalone`: runs the shipped folder (.next/standalone/server.js) from the
 * repository, as `npm start` runs `next start`: same PORT, same data. server.js moves into its own
 * folder, where a relative DATA_DIR would land inside .next (wiped by the next build), so DATA_DIR
 * is made absolute here first, against the directory this was started from (default ./data).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const folder = resolve(".next", "standalone");
if (!existsSync(join(folder, "server.js")) || !existsSync(join(folder, ".next", "static"))) {
  console.error(`${folder} is missing or incomplete: run \`npm run build\` first.`);
  process.exit(1);
}
process.env.DATA_DIR = resolve(process.env.DATA_DIR || "data");
createRequire(import.meta.url)(join(folder, "server.js"));
