import "server-only";
import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json";

/**
 * What two creates that repeat each other share: the request apart from its ref_id, hashed.
 * Indexed in the journal, so the repeat question finds a repeat without reading every entry.
 */
export const requestKey = (request: unknown): string =>
  createHash("sha256")
    .update(canonicalJson({ ...(request as Record<string, unknown>), ref_id: undefined }))
    .digest("base64url");
