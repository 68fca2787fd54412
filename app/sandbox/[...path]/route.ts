import { serveSandbox } from "@/lib/sandbox/http/serve";
import { sandbox } from "../runtime";

// The simulated service: every method of every path under /sandbox.
export const dynamic = "force-dynamic";

const handle = (request: Request) => serveSandbox(request, sandbox());

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
