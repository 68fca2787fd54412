"use client";

import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { api, problemOf } from "@/lib/client/api";

type Verification =
  { ok: true; entries: number } | { ok: false; entries: number; broken: { seq: number; reason: string } };

/** GET /api/audit/verify on demand: the chain intact, or the first broken entry. */
export function VerifyChain() {
  const verify = useMutation({ mutationFn: () => api<Verification>("/api/audit/verify") });
  const result = verify.data;
  return (
    <div className="flex items-center gap-2 text-sm">
      <Button variant="secondary" disabled={verify.isPending} onClick={() => verify.mutate()}>
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </Button>
      <span role="status" data-testid="audit-verify">
        {result?.ok === true && (
          <span className="font-semibold text-buy">Chain intact: {result.entries} entries verified</span>
        )}
        {result?.ok === false && (
          <span className="font-semibold text-sell">
            Chain broken at entry #{result.broken.seq}: {result.broken.reason}
          </span>
        )}
      </span>
      {verify.isError && <ProblemAlert problem={problemOf(verify.error)} />}
    </div>
  );
}
