import { describe, expect, it } from "vitest";
import { matchRoute, routeMatcher } from "@/lib/server/ops/app-routes";

// The shape of .next/routes-manifest.json, as Next writes it.
const manifest = {
  staticRoutes: [
    { page: "/api/approvals", regex: "^/api/approvals(?:/)?$" },
    { page: "/orders", regex: "^/orders(?:/)?$" },
  ],
  dynamicRoutes: [
    { page: "/api/approvals/[id]", regex: "^/api/approvals/([^/]+?)(?:/)?$" },
    { page: "/api/approvals/[id]/approve", regex: "^/api/approvals/([^/]+?)/approve(?:/)?$" },
    { page: "/sandbox/[...path]", regex: "^/sandbox/(.+?)(?:/)?$" },
  ],
};

describe("the route of a path, for log lines", () => {
  const matcher = routeMatcher(manifest);
  it.each([
    ["/orders", "/orders"],
    ["/api/approvals", "/api/approvals"],
    ["/api/approvals/0192-abc", "/api/approvals/[id]"],
    ["/api/approvals/0192-abc/approve", "/api/approvals/[id]/approve"],
    ["/sandbox/v2/profiles/x/orders", "/sandbox/[...path]"],
    ["/_next/static/chunks/a.js", null],
    ["/nowhere", null],
  ])("%s is %s", (path, route) => {
    expect(matchRoute(matcher, path)).toBe(route);
  });

  it("is null for every path without a manifest", () => {
    expect(matchRoute(routeMatcher({}), "/orders")).toBeNull();
  });
});
