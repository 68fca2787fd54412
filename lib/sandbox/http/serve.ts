import type { SandboxRuntime } from "../runtime";
import { handleSandboxRequest } from "./index";
import { problemResponse } from "@/lib/server/http/toolkit";
import { problem, ProblemError } from "@/lib/spec";

/**
 * The whole sandbox behind one function of a Web Request: the Next route and the test
 * server both call it. The path is taken raw from the URL, so an encoded "/" inside an
 * id stays inside that id (and is then refused by the id's rule). `ip` is the caller's
 * address, which limits callers that are not (yet) an authenticated client; null in process.
 */
export async function serveSandbox(
  request: Request,
  sandbox: SandboxRuntime | null,
  ip: string | null = null,
): Promise<Response> {
  if (!sandbox) return problemResponse(problem(404, "Not Found", "the embedded sandbox is off (SANDBOX=off)"));
  const path = new URL(request.url).pathname.replace(/^\/sandbox/, "");
  try {
    return await handleSandboxRequest(request, path, sandbox, ip);
  } catch (error) {
    // A refusal raised before any route's own handling (a body past its cap, at the token endpoint).
    if (error instanceof ProblemError) return problemResponse(error.problem);
    sandbox.config.onError?.("sandbox: request failed", error);
    return problemResponse(problem(500, "Internal Server Error", "the sandbox failed to handle the request"));
  }
}
