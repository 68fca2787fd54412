"use client";

import { useQuery } from "@tanstack/react-query";
import type { CreatePreview } from "@/lib/shared/create-preview";
import type { CreateInternalTransferRequest, CreateOrderRequest } from "@/lib/spec";
import { api } from "./api";

/** A checked create, as the review would send it. */
export type PreviewTarget =
  | { kind: "order"; profileId: string; request: CreateOrderRequest }
  | { kind: "transfer"; request: CreateInternalTransferRequest };

/**
 * The back end's dry run of the create under review (lib/shared/create-preview.ts): asked once
 * when the review opens, never reused for another review (each is weighed as of its opening),
 * never retried (a failed dry run leaves the decision to the send, which is weighed anyway).
 */
export function useCreatePreview(target: PreviewTarget | undefined) {
  return useQuery({
    queryKey: ["create-preview", target],
    queryFn: ({ signal }) =>
      target!.kind === "order"
        ? api<CreatePreview>("/api/orders/preview", {
            method: "POST",
            body: { profile_id: target!.profileId, request: target!.request },
            signal,
          })
        : api<CreatePreview>("/api/transfers/preview", { method: "POST", body: target!.request, signal }),
    enabled: target !== undefined,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
