import { serveSandbox } from "@/lib/sandbox/http/serve";
import { clientIp } from "@/lib/server/http/origin";
import { runtime } from "@/lib/server/runtime";

// The simulated service: every method of every path under /sandbox.
export const dynamic = "force-dynamic";

const handle = async (request: Request) => serveSandbox(request, (await runtime()).sandbox, clientIp(request));

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
