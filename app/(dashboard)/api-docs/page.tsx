import type { Metadata } from "next";
import { headers } from "next/headers";
import { IntentLink } from "@/components/ui/intent-link";
import { ApiReference } from "@/components/api-docs/api-reference";
import type { OpenApiDocument } from "@/components/api-docs/openapi";
import { requireUser } from "@/lib/server/auth/require-user";
import { ownOrigin } from "@/lib/server/http/origin";
import { openApiDocument } from "@/lib/server/openapi/document";

export const metadata: Metadata = { title: "API docs" };

/** The route that serves the document, with no session needed. */
const DOCUMENT_PATH = "/api/openapi.json";

/** The document is the same for every request: made once per process, as its route does. */
let apiDocument: OpenApiDocument | undefined;

/**
 * The dashboard's API (issue 28), drawn from its own OpenAPI document on the server: plain HTML,
 * no script of its own, nothing from another origin. Under the person's menu beside API tokens,
 * for every role, signed in as every page of the shell is; the document itself needs no session.
 */
export default async function ApiDocsPage() {
  await requireUser();
  apiDocument ??= openApiDocument() as unknown as OpenApiDocument;
  const origin = ownOrigin({ headers: await headers() });
  return (
    <div className="space-y-6">
      <div className="max-w-3xl space-y-1">
        <h1 className="text-lg font-semibold">API docs</h1>
        <p className="text-sm text-ink-muted">
          A script calls the dashboard with a personal API token, made on{" "}
          <IntentLink href="/tokens" className="font-medium text-brand underline hover:text-brand-hover">
            API tokens
          </IntentLink>
          : it acts as you, with your role, narrowed by the token&apos;s scopes, through the same controls as this page.
          Below is every call, who may make it and the token scope it needs. The same, for a client generator:{" "}
          <a href={DOCUMENT_PATH} className="font-mono font-medium text-brand underline hover:text-brand-hover">
            {DOCUMENT_PATH}
          </a>
          .
        </p>
      </div>
      <ApiReference document={apiDocument} origin={origin} />
    </div>
  );
}
