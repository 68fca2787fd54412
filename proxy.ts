import { NextResponse, type NextRequest } from "next/server";
import { bodyLimitOf, cappedText } from "@/lib/server/http/toolkit";
import { ProblemError, type Problem } from "@/lib/spec";
import {
  contentSecurityPolicy,
  declaredBodyProblem,
  mustMeasureBody,
  newNonce,
  pathProblem,
  strictTransportSecurity,
} from "@/lib/server/http/request-guard";

/**
 * In front of every route (Next's request proxy): a broken %-escape in the path is a 400 and
 * a body past its cap a 413, both before Next or next-auth read anything; then every response
 * gets this request's nonce-based CSP, and HSTS when the public URL is https.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const refusal =
    pathProblem(request.nextUrl.pathname) ??
    declaredBodyProblem(request.method, request.headers.get("content-length"), bodyLimitOf(request.nextUrl.pathname)) ??
    (await measuredBodyProblem(request));
  if (refusal) return withSecurityHeaders(problemJson(refusal), newNonce());

  const nonce = newNonce();
  const headers = new Headers(request.headers);
  // Next reads the nonce for its own scripts from the request's policy header.
  headers.set("content-security-policy", policy(nonce));
  headers.set("x-nonce", nonce);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), nonce);
}

async function measuredBodyProblem(request: NextRequest): Promise<Problem | null> {
  if (!mustMeasureBody(request.method, request.headers)) return null;
  try {
    // The proxy reads its own copy of the body (Next buffers one for the route).
    await cappedText(request, bodyLimitOf(request.nextUrl.pathname));
    return null;
  } catch (error) {
    if (error instanceof ProblemError) return error.problem;
    throw error;
  }
}

const policy = (nonce: string) => contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");

function withSecurityHeaders(response: Response, nonce: string): Response {
  response.headers.set("Content-Security-Policy", policy(nonce));
  const hsts = strictTransportSecurity(process.env.NEXTAUTH_URL ?? process.env.AUTH_URL);
  if (hsts) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

const problemJson = (p: Problem) =>
  new Response(JSON.stringify(p), { status: p.status, headers: { "Content-Type": "application/problem+json" } });

export const config = {
  // Everything but the build's own static files (next.config.js gives them a fixed policy).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
