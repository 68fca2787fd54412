import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing off the main thread: node's scrypt runs in libuv's thread pool, so a burst
 * of sign-ins waits there, not in the event loop every other request shares.
 */

/** scrypt's cost: N, r and p. */
export type PasswordCost = Required<Pick<ScryptOptions, "N" | "r" | "p">>;

/** N=2^14, r=8 (OWASP's minimum for scrypt): what every server hashes at. */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 14, r: 8, p: 1 };
/**
 * A sixteenth of that, for the runtimes the in-process tests make: they sign in hundreds of times
 * a run, 36 ms of CPU each at the full cost. A runtime built from the environment never uses it.
 */
export const TEST_PASSWORD_COST: PasswordCost = { N: 2 ** 10, r: 8, p: 1 };
/** 64 MiB of memory at most per check. */
const MAX_MEMORY = 64 * 1024 * 1024;
const KEY_BYTES = 32;
/** Longer passwords are refused unhashed: nobody types one, and each would cost a hash. */
export const PASSWORD_MAX_CHARS = 1024;

const derive = (password: string, salt: Buffer, cost: PasswordCost) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** A password's hash, with the cost it was made at (and is checked at). */
export interface PasswordHash {
  salt: Buffer;
  key: Buffer;
  cost: PasswordCost;
}

export async function hashPassword(password: string, cost: PasswordCost = PASSWORD_COST): Promise<PasswordHash> {
  const salt = randomBytes(16);
  return { salt, key: await derive(password, salt, cost), cost };
}

/** True when `password` matches; always spends one hash's time, whatever the input. */
export async function verifyPassword(password: string, hash: PasswordHash): Promise<boolean> {
  const tooLong = password.length > PASSWORD_MAX_CHARS;
  const key = await derive(tooLong ? "" : password, hash.salt, hash.cost);
  return timingSafeEqual(key, hash.key) && !tooLong;
}
