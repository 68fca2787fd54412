/**
 * `npm run api:types`: writes the typed client's types (docs/samples/api-client/schema.d.ts),
 * made by openapi-typescript from the document GET /api/openapi.json answers, byte for byte what
 * its CLI makes of a running dashboard's (`npx openapi-typescript <url>/api/openapi.json`).
 * test/routes/openapi-client.test.ts fails while the file is behind the document.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { openApiDocument } from "@/lib/server/openapi/document";

export const API_TYPES_FILE = join(__dirname, "..", "docs", "samples", "api-client", "schema.d.ts");

/** The types of today's document, as the CLI writes them with no options. */
export async function apiTypes(): Promise<string> {
  return `${COMMENT_HEADER}${astToString(await openapiTS(openApiDocument() as never))}`;
}

if (process.argv[1]?.endsWith("api-types.ts")) {
  void apiTypes().then((types) => {
    writeFileSync(API_TYPES_FILE, types);
    console.log("wrote docs/samples/api-client/schema.d.ts");
  });
}
