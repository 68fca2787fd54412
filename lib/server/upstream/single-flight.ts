import "server-only";
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from "./client";

/**
 * Identical GETs in flight at the same moment share one call to the service: a page loaded on
 * many screens at once, or the watcher and a page asking for the same ticker, cost one request.
 * Only reads are shared; a create or a cancel is always its own call.
 */
export function singleFlight(client: UpstreamClient): UpstreamClient {
  const inFlight = new Map<string, { answer: Promise<UpstreamResponse>; callers: number }>();
  return {
    request(request) {
      if (request.method !== "GET") return client.request(request);
      const key = keyOf(request);
      let flight = inFlight.get(key);
      if (!flight) {
        const answer = client.request(request).finally(() => inFlight.delete(key));
        flight = { answer, callers: 0 };
        inFlight.set(key, flight);
      }
      flight.callers++;
      const shared = flight;
      // Callers may change the body they get (sort, slice): each sharer gets its own copy.
      return shared.answer.then((res) => (shared.callers > 1 ? { ...res, body: structuredClone(res.body) } : res));
    },
  };
}

/** The path and its query, parameters in a canonical order. */
function keyOf(request: UpstreamRequest): string {
  const params = Object.entries(request.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${request.path}?${JSON.stringify(params)}`;
}
