import { describe, expect, it } from "vitest";
import { ACTIONS, type Action, type Role } from "@/lib/shared/roles";
import { scopeNeeded, scopeUsableBy, TOKEN_SCOPES, type TokenScope } from "@/lib/shared/token-scopes";

/** Written out, not derived: a new action stops this test until someone decides what a token may do with it. */
const EXPECTED: Record<Action, { GET: TokenScope | null; POST: TokenScope | null }> = {
  read: { GET: "read", POST: "read" },
  "orders:create": { GET: "trade", POST: "trade" },
  "orders:cancel": { GET: "trade", POST: "trade" },
  "transfers:create": { GET: "transfer", POST: "transfer" },
  "batches:create": { GET: "batch", POST: "batch" },
  "rebalance:targets": { GET: "read", POST: null },
  approve: { GET: null, POST: null },
  "approvals:withdraw": { GET: null, POST: null },
  "policies:edit": { GET: null, POST: null },
  "audit:verify": { GET: null, POST: null },
  "audit:read": { GET: "read", POST: "read" },
  "metrics:read": { GET: null, POST: null },
  "sessions:manage": { GET: null, POST: null },
  tokens: { GET: null, POST: null },
  "webhooks:manage": { GET: null, POST: null },
  notifications: { GET: null, POST: null },
};

describe("the scope each action needs of a token", () => {
  it.each(ACTIONS)("%s", (action) => {
    expect({ GET: scopeNeeded(action, "GET"), POST: scopeNeeded(action, "POST") }).toEqual(EXPECTED[action]);
  });

  it("a change of the rebalancing targets is never a token's, by any changing method", () => {
    for (const method of ["PUT", "POST", "PATCH", "DELETE"])
      expect(scopeNeeded("rebalance:targets", method)).toBeNull();
    expect(scopeNeeded("rebalance:targets", "head")).toBe("read");
  });
});

describe("the scopes a role can use", () => {
  const USABLE: Record<Role, TokenScope[]> = {
    viewer: ["read"],
    trader: ["read", "trade"],
    ops: ["read", "transfer", "batch"],
    approver: ["read"],
    admin: ["read", "trade", "transfer", "batch"],
  };
  it.each(Object.entries(USABLE) as [Role, TokenScope[]][])("%s: %s", (role, scopes) => {
    expect(TOKEN_SCOPES.filter((scope) => scopeUsableBy(role, scope))).toEqual(scopes);
  });
});
