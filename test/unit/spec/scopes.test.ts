import { describe, expect, it } from "vitest";
import { isScope, lackedScopeDetail, scopeOf, SCOPES } from "@/lib/spec";

describe("the scope each operation needs (the published reference's security requirements)", () => {
  it.each([
    ["GET", "/profiles", "funding:read_profile"],
    ["GET", "/profiles/p-1", "funding:read_profile"],
    ["GET", "/profiles/p-1/balances", "funding:read_profile"],
    ["GET", "/profiles/p-1/balances/BTC", "funding:read_profile"],
    ["POST", "/sandbox/profiles/p-1/deposit", "funding:read_profile"],
    ["GET", "/orders", "exchange:read_order"],
    ["GET", "/executions", "exchange:read_order"],
    ["GET", "/profiles/p-1/orders", "exchange:read_order"],
    ["GET", "/profiles/p-1/orders/o-1", "exchange:read_order"],
    ["GET", "/profiles/p-1/executions", "exchange:read_order"],
    ["POST", "/profiles/p-1/orders", "exchange:write_order"],
    ["delete", "/profiles/p-1/orders/o-1", "exchange:write_order"],
    ["POST", "/transfer/internal", "transfer:write_internal_transfer"],
    ["GET", "/transfer/transfers", "transfer:read_transfer"],
    ["GET", "/transfer/transfers/t-1", "transfer:read_transfer"],
  ])("%s %s needs %s", (method, path, scope) => {
    expect(scopeOf(method, path)).toBe(scope);
  });

  it.each([
    ["GET", "/markets"],
    ["GET", "/markets/BTCUSD/order-book"],
    ["GET", "/markets/BTCUSD/ticker"],
    ["GET", "/markets/BTCUSD/recent-executions"],
  ])("%s %s is public", (method, path) => {
    expect(scopeOf(method, path)).toBeUndefined();
  });

  it("knows the five scopes and says which one is lacking", () => {
    expect(SCOPES).toHaveLength(5);
    expect(isScope("exchange:write_order")).toBe(true);
    expect(isScope("exchange:write_orders")).toBe(false);
    expect(lackedScopeDetail("exchange:write_order")).toBe("The service's credentials lack exchange:write_order");
  });
});
