import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isScope, lackedScopeDetail, OPERATIONS, operationOf, scopeOf, SCOPES, templateOf } from "@/lib/spec";

describe("the scope each operation needs (the published reference's security requirements)", () => {
  it.each([
    ["GET", "/profiles", "funding:read_profile"],
    ["GET", "/profiles/p-1/balances", "funding:read_profile"],
    ["POST", "/sandbox/profiles/p-1/deposit", "funding:read_profile"],
    ["GET", "/orders", "exchange:read_order"],
    ["GET", "/profiles/p-1/orders/o-1", "exchange:read_order"],
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

  it("knows the five scopes, each needed by some operation, and says which one is lacking", () => {
    expect(SCOPES).toHaveLength(5);
    const needed = new Set(Object.values(OPERATIONS).map((o) => ("scope" in o ? o.scope : undefined)));
    for (const scope of SCOPES) expect(needed).toContain(scope);
    expect(isScope("exchange:write_order")).toBe(true);
    expect(isScope("exchange:write_orders")).toBe(false);
    expect(lackedScopeDetail("exchange:write_order")).toBe("The service's credentials lack exchange:write_order");
  });
});

describe("the operation a call is", () => {
  it.each([
    ["POST", "/profiles/p-1/orders", "createOrder", "api"],
    ["DELETE", "/profiles/p-1/orders/o-1", "cancelOrder", "api"],
    ["get", "/profiles/p-1/orders/o-1", "getOrder", "api"],
    ["POST", "/transfer/internal", "createInternalTransfer", "transfer"],
    ["GET", "/markets/ETHUSD/order-book", "getOrderBook", "order-book"],
    ["GET", "/markets/ETHUSD/recent-executions", "listRecentExecutions", "order-book"],
    ["GET", "/markets/ETHUSD/ticker", "getTicker", "api"],
  ])("%s %s is %s, counted against the %s limit", (method, path, id, rateClass) => {
    expect(operationOf(method, path)).toMatchObject({ id, rateClass });
  });

  it.each([
    ["GET", "/profiles/p-1/orders"],
    ["PUT", "/profiles/p-1/orders/o-1"],
    ["GET", "/profiles/p-1/orders/o-1/fills"],
    ["GET", "/profiles//balances"],
    ["GET", "/v2/orders"],
  ])("%s %s is none of them", (method, path) => {
    expect(operationOf(method, path)).toBeUndefined();
    expect(scopeOf(method, path)).toBeUndefined();
  });

  it("names a path by its template whatever the method, and a path of no operation by none", () => {
    expect(templateOf("/profiles/p-1/orders")).toBe("/profiles/{profile_id}/orders");
    expect(templateOf("/profiles/p-1/orders/o-9")).toBe("/profiles/{profile_id}/orders/{id}");
    expect(templateOf("/markets/BTCUSD/recent-executions")).toBe("/markets/{market}/recent-executions");
    expect(templateOf("/sandbox/profiles/p-1/deposit")).toBe("/sandbox/profiles/{profile_id}/deposit");
    expect(templateOf("/profiles/p-1/orders/o-9/extra")).toBeUndefined();
    expect(templateOf("/nowhere")).toBeUndefined();
  });
});

describe("one spelling of each scope", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const home = "lib/spec/operations.ts";
  const literal = /"(exchange|transfer|funding):[a-z_]+"/;

  it("is in lib/spec/operations.ts: no other source under app/, lib/ or components/ spells one", () => {
    const sources = ["app", "lib", "components"].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.(ts|tsx|mts|js|mjs)$/.test(file))
        .map((file) =>
          relative(root, join(root, dir, file))
            .split("\\")
            .join("/"),
        ),
    );
    expect(sources).toContain(home);
    const spelling = sources.filter((file) => file !== home && literal.test(readFileSync(join(root, file), "utf8")));
    expect(spelling).toEqual([]);
    expect(literal.test(readFileSync(join(root, home), "utf8"))).toBe(true);
  });
});
