import type { TokenClaims } from "../oauth";
import type { SandboxRuntime } from "../runtime";

/** What a sandbox API handler gets: the request, its path parameters and the caller. */
export interface HandlerContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  caller: TokenClaims;
  sandbox: SandboxRuntime;
}

export type Handler = (ctx: HandlerContext) => Response | Promise<Response>;
