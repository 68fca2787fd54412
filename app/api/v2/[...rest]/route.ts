import { problemResponse } from "@/lib/server/http/toolkit";
import { problem } from "@/lib/spec";

// Only the operations above pass through to the service; everything else is refused here.
const notProxied = (request: Request) =>
  problemResponse(
    problem(
      404,
      "Not Found",
      `${request.method} ${new URL(request.url).pathname} is not an operation of the dashboard`,
    ),
  );

export { notProxied as GET, notProxied as POST, notProxied as PUT, notProxied as PATCH, notProxied as DELETE };
