import "server-only";
import { parseEnv, type Env } from "./env-schema";

/** The validated configuration. Importing this from client code fails the build. */
export const env: Env = parseEnv(process.env);
