import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { metricsHandler } from "@/lib/server/ops/metrics-route";

/** Prometheus text: an admin's session, or `Authorization: Bearer $METRICS_TOKEN`. */
export const GET = metricsHandler();

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
