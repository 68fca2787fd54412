import "server-only";
import { readBatchCsv, readBatchJson, type BatchRead } from "@/lib/shared/batch-file";
import { problem, ProblemError } from "@/lib/spec";
import { BATCH_BODY_LIMIT_BYTES, cappedBytes, isJsonContentType, jsonBody } from "../http/toolkit";
import type { Runtime } from "../runtime";
import { deskProfiles } from "../upstream/desk-profiles";

/** True for `text/csv`, with or without parameters such as charset. */
const isCsvContentType = (type: string | null): boolean => /^text\/csv\s*(?:;|$)/i.test(type?.trim() ?? "");

/**
 * A batch as POST /api/batches (and its preview) receives it: a CSV file (`text/csv`, the batch's
 * ref_id as `?ref_id=`; read as bytes, so a file that is not UTF-8 is told as such) or a JSON
 * body; rows may name only the desk's profiles (a CSV's by id or nickname). Any other type is a 415.
 */
export async function readBatchRequest(rt: Runtime, request: Request): Promise<BatchRead> {
  const type = request.headers.get("content-type");
  if (isCsvContentType(type)) {
    const bytes = await cappedBytes(request, BATCH_BODY_LIMIT_BYTES);
    const profiles = await deskProfiles(rt.upstream, rt.clock.now);
    return readBatchCsv(bytes, { profiles, ref_id: new URL(request.url).searchParams.get("ref_id") ?? "" });
  }
  if (isJsonContentType(type)) {
    const body = await jsonBody(request, BATCH_BODY_LIMIT_BYTES);
    return readBatchJson(body, { profiles: await deskProfiles(rt.upstream, rt.clock.now) });
  }
  throw new ProblemError(
    problem(
      415,
      "Unsupported Media Type",
      "A batch is sent as a CSV file (Content-Type: text/csv, its ref_id as ?ref_id=) or as JSON (Content-Type: application/json).",
      { accepted: ["text/csv", "application/json"] },
    ),
  );
}
