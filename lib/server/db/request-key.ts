import "server-only";
import { createHash } from "node:crypto";

/** JSON with every object's keys sorted: equal values give equal text, whatever their key order. */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(value));
}

/**
 * What two creates that repeat each other share: the request apart from its ref_id, hashed.
 * Indexed in the journal, so the duplicate check finds a repeat without reading every entry.
 */
export const requestKey = (request: unknown): string =>
  createHash("sha256")
    .update(canonicalJson({ ...(request as Record<string, unknown>), ref_id: undefined }))
    .digest("base64url");
