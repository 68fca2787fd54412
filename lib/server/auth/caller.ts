import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The caller of the next-auth request being handled (app/api/auth/[...nextauth]): next-auth's
 * events and callbacks are not handed the request, yet sign-ins and sign-outs are audited with
 * the caller's address.
 */
const caller = new AsyncLocalStorage<{ ip: string | null }>();

/** Runs `handle` with `ip` as the caller's address of everything it awaits. */
export const withCaller = <T>(ip: string | null, handle: () => T): T => caller.run({ ip }, handle);

/** The address of the next-auth request being handled, or null outside one. */
export const callerIp = (): string | null => caller.getStore()?.ip ?? null;
