/**
 * `npm start` and `npm run dev` run this first: `next start` binds its port before it loads the
 * app (and so before instrumentation.ts can check anything), so a bad configuration is refused
 * here, before anything listens. The .env files are read as Next reads them. Whatever else
 * starts the server (the standalone server.js, `next start` itself) is stopped by the same
 * check in instrumentation.ts, a moment after the port opens and before any request is answered.
 */
import { loadEnvConfig } from "@next/env";
import { exitOnInvalidConfiguration } from "@/lib/server/config-check";

loadEnvConfig(process.cwd(), process.argv.includes("--dev"), { info: () => {}, error: () => {} });
exitOnInvalidConfiguration(process.env);
