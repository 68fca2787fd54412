/**
 * A script's typed client of the dashboard's API (docs/api.md): openapi-fetch over the types
 * openapi-typescript made of GET /api/openapi.json (./schema.d.ts, `npm run api:types`). Every
 * call carries a personal API token, so it goes through the desk's controls as the token's owner.
 * test/routes/openapi-client.test.ts runs these very functions.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export type DashboardClient = ReturnType<typeof dashboardClient>;

/** A client of the dashboard at `baseUrl` acting with the token `secret` (dsk_…). */
export function dashboardClient(baseUrl: string, secret: string, fetch?: (input: Request) => Promise<Response>) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${secret}` }, ...(fetch ? { fetch } : {}) });
}

/**
 * An order for a profile: 200 sent (the service's order), 202 held for an approver, or a problem.
 * `confirmPriceGuard` (the market) sends one far from the market's price anyway, once the 428 asked.
 */
export function placeOrder(
  client: DashboardClient,
  profile_id: string,
  order: Schemas["CreateOrderRequest"],
  confirmPriceGuard?: Schemas["CreateOrderRequest"]["market"],
) {
  return client.POST("/api/v2/profiles/{profile_id}/orders", {
    params: {
      path: { profile_id },
      ...(confirmPriceGuard ? { header: { "Confirm-Price-Guard": confirmPriceGuard } } : {}),
    },
    body: order,
  });
}

/** An internal transfer between two profiles: 200 sent, 202 held, or a problem. */
export function makeTransfer(client: DashboardClient, transfer: Schemas["CreateInternalTransferRequest"]) {
  return client.POST("/api/v2/transfer/internal", { body: transfer });
}

/** The orders table's first page for one market, newest first, the held orders beside it. */
export function listOrders(client: DashboardClient, market: Schemas["CreateOrderRequest"]["market"]) {
  return client.GET("/api/orders", { params: { query: { market } } });
}

/** The orders of one market as CSV. */
export function exportOrders(client: DashboardClient, market: Schemas["CreateOrderRequest"]["market"]) {
  return client.GET("/api/orders/export.csv", { params: { query: { market } }, parseAs: "text" });
}
