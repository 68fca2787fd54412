import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiReference } from "@/components/api-docs/api-reference";
import { fieldsOf, typeOf } from "@/components/api-docs/json-schema";
import type { OpenApiDocument } from "@/components/api-docs/openapi";
import { openApiDocument } from "@/lib/server/openapi/document";

/**
 * /api-docs's reference (components/api-docs), rendered on the server as the page renders it,
 * from the dashboard's own document: every operation has its section, every schema link its
 * target, and the parts a script needs (scope, statuses, a curl call) are there. What a browser
 * sees (the menu, the jump to a schema, the themes, a phone) is test/e2e/api-docs.test.ts's.
 */

const ORIGIN = "https://desk.example.com";
const document = openApiDocument() as unknown as OpenApiDocument;
const html = renderToStaticMarkup(createElement(ApiReference, { document, origin: ORIGIN }));

/** The markup of the operation `method path`: its section, up to the next one. */
function operation(method: string, path: string): string {
  const start = html.indexOf(`data-operation="${method} ${path}"`);
  expect(start, `${method} ${path}`).toBeGreaterThan(-1);
  const end = html.indexOf("data-operation=", start + 1);
  return html.slice(start, end < 0 ? html.indexOf('id="schemas"') : end);
}

describe("the API reference", () => {
  it("has a section for every path and method of the document, once", () => {
    const pairs = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const sections = [...html.matchAll(/data-operation="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(sections.sort()).toEqual(pairs.sort());
  });

  it("links every type to a schema section there is, and has a section for every schema", () => {
    expect(html).toContain('href="#common-responses"');
    const targets = new Set([...html.matchAll(/<section id="(schema-[^"]+)"/g)].map((m) => m[1]));
    const links = new Set([...html.matchAll(/href="#(schema-[^"]+)"/g)].map((m) => m[1]));
    expect(links.size).toBeGreaterThan(10);
    expect([...links].filter((l) => !targets.has(l))).toEqual([]);
    expect([...targets].sort()).toEqual(
      Object.keys(document.components!.schemas!)
        .map((n) => `schema-${n}`)
        .sort(),
    );
  });

  it("says what creating an order takes and answers, its token scope, and how a script calls it", () => {
    const create = operation("post", "/api/v2/profiles/{profile_id}/orders");
    expect(create).toContain("Create an order");
    expect(create).toMatch(/Token scope<\/dt><dd><code[^>]*>trade<\/code>/);
    for (const status of ["200", "202", "403", "409", "428"]) expect(create).toContain(`>${status}</th>`);
    // What many calls answer alike, named by status and described once.
    expect(create).toContain(">400, 401, 429, 500</th>");
    expect(html).toMatch(/id="common-responses".*>401<\/th><td data-label="Description">Unauthorized/s);
    expect(create).toContain('href="#schema-CreateOrderRequest"');
    expect(create).toContain('href="#schema-Held"');
    expect(create).toContain("Confirm-Price-Guard");
    expect(create).toContain(
      `curl -X POST &quot;${ORIGIN}/api/v2/profiles/$PROFILE_ID/orders&quot; \\\n  -H &quot;Authorization: Bearer $TOKEN&quot;`,
    );
  });

  it("sends a browser-only operation's reader to a session, and a batch's to its CSV too", () => {
    const approve = operation("post", "/api/approvals/{id}/approve");
    expect(approve).toContain("Signed-in browser session only");
    expect(approve).not.toContain("curl");
    expect(operation("post", "/api/batches")).toContain(">text/csv</code>: The batch as a CSV file");
  });

  it("reads a schema's types and nests an object's fields a level deeper", () => {
    const policy = document.components!.schemas!.Policy!;
    const rows = fieldsOf(policy);
    expect(rows.map((r) => [r.name, r.depth])).toContainEqual(["max_order_notional_usd", 1]);
    // Read with the field it is in, as the indent shows it.
    expect(html).toContain('<th scope="row" aria-label="limits.max_order_notional_usd">max_order_notional_usd</th>');
    expect(rows.find((r) => r.name === "approval_rules")!.type).toEqual({
      kind: "array",
      items: { kind: "ref", name: "ApprovalRule" },
    });
    expect(typeOf({ type: ["string", "null"] })).toEqual({ kind: "plain", name: "string or null" });
    expect(typeOf({ anyOf: [{ $ref: "#/components/schemas/Order" }, { type: "null" }] })).toEqual({
      kind: "oneOf",
      options: [
        { kind: "ref", name: "Order" },
        { kind: "plain", name: "null" },
      ],
    });
  });
});
