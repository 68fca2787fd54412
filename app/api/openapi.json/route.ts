import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { openApiDocument } from "@/lib/server/openapi/document";

/**
 * The dashboard's API as an OpenAPI 3.1 document (lib/server/openapi/), with no session: a
 * script (or a client generator) reads it before it has a token, and it holds only the shapes
 * of requests and answers, which the source says already; no data, no secret.
 */
let document: string | undefined;

export function GET(): Response {
  document ??= JSON.stringify(openApiDocument());
  return new Response(document, {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
