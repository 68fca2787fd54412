import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "@/components/api-docs/api-reference";
import { DOCUMENT_PATH } from "@/components/api-docs/scalar-configuration";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "API docs" };

/**
 * The dashboard's API (issue 28), drawn from its own OpenAPI document by a package the app
 * serves itself: no CDN, no request to any other origin. Under the person's menu beside API
 * tokens, for every role, signed in as every page of the shell is; the document itself needs
 * no session.
 */
export default async function ApiDocsPage() {
  await requireUser();
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <h1 className="text-lg font-semibold">API docs</h1>
        <p className="text-sm text-ink-muted">
          What a script may call, with a token made on{" "}
          <Link href="/tokens" className="font-medium text-brand underline hover:text-brand-hover">
            API tokens
          </Link>
          . The document itself:{" "}
          <a href={DOCUMENT_PATH} className="font-mono text-brand underline hover:text-brand-hover">
            {DOCUMENT_PATH}
          </a>
          .
        </p>
      </div>
      <ApiReference />
    </div>
  );
}
