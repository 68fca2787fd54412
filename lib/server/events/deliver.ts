import "server-only";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./address-guard";

/**
 * One attempt at one delivery: a POST of the signed body to the address the guard checked
 * (address-guard.ts), never another one the host resolves to meanwhile. A redirect is an answer
 * like any other (a 3xx is not delivered, and never followed), at most 1 kB of the answer is kept,
 * and an attempt that has no answer within the timeout fails.
 */

/** How long an attempt may take before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept. */
export const RESPONSE_KEPT_BYTES = 1024;

export interface Attempt {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export type AttemptResult = { status: number; body: string } | { error: string };

export function attemptDelivery({ url, address, headers, body, timeoutMs = DELIVERY_TIMEOUT_MS }: Attempt) {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [address]);
    } else callback(null, address.address, address.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = send(url, {
      method: "POST",
      lookup: pinned,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => done({ error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    req.on("response", (res: IncomingMessage) => {
      const kept: Buffer[] = [];
      let size = 0;
      const finish = () => done({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString("utf8") });
      res.on("data", (chunk: Buffer) => {
        if (size < RESPONSE_KEPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - size));
        size += chunk.length;
        // Enough is known: the rest of a large answer is not read.
        if (size >= RESPONSE_KEPT_BYTES) finish();
      });
      res.on("end", finish);
      res.on("error", finish);
    });
    req.on("error", (error) => done({ error: error.message || "the connection failed" }));
    req.end(body);
  });
}
