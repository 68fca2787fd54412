"use client";

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { Approval } from "@/lib/shared/approval";
import { isOpenBatch, type Batch, type BatchPreview } from "@/lib/shared/batch";
import type { PlannedTransfer, RebalanceTarget, Shortfall } from "@/lib/shared/rebalance-plan";
import { api, query } from "./api";
import { refreshEvery, streamUp } from "./live-status";

/**
 * The Batches page's reads and writes (issue 27): a batch of internal transfers previewed,
 * sent, followed and cancelled through `/api/batches`, and the rebalancing targets and plan
 * (`/api/rebalance/...`). The live stream's `batch` events read a batch again
 * (lib/client/live-events.ts); the reads poll only while the stream is down.
 */

export type { Batch, BatchPreview };

/**
 * What the page sends, as the preview and the create both take it: a CSV file's bytes as they
 * are (so the back end can name a byte-order mark or an encoding), CSV text pasted, or the
 * transfers of a rebalancing plan as JSON.
 */
export type BatchBody =
  | { kind: "csv"; ref_id: string; csv: Blob | string; name?: string }
  | { kind: "json"; ref_id: string; transfers: PlannedTransfer[] };

/** What a batch's create answers: sending (201), waiting for four eyes (202), or the batch the ref_id already made (200). */
export type BatchAnswer = { batch: Batch; approval?: Approval };

export const batchKeys = {
  all: ["batches"] as const,
  list: ["batches", "list"] as const,
  one: (id: string) => ["batches", "one", id] as const,
  preview: (refId: string, source: string) => ["batch-preview", refId, source] as const,
  targets: ["rebalance", "targets"] as const,
  plan: ["rebalance", "plan"] as const,
};

/** POSTs `body` to `path` (the preview or the create) as it is: CSV with its ref_id in the query, or JSON. */
function postBatch<T>(path: string, body: BatchBody, headers: Record<string, string> = {}, signal?: AbortSignal) {
  if (body.kind === "csv") {
    return api<T>(`${path}${query({ ref_id: body.ref_id })}`, {
      method: "POST",
      raw: body.csv,
      headers: { "Content-Type": "text/csv", ...headers },
      signal,
    });
  }
  return api<T>(path, { method: "POST", body: { ref_id: body.ref_id, transfers: body.transfers }, headers, signal });
}

export const previewBatch = (body: BatchBody, signal?: AbortSignal) =>
  postBatch<{ preview: BatchPreview }>("/api/batches/preview", body, {}, signal).then((r) => r.preview);

/** Sends the batch; `headers` carries "send another" (Confirm-Duplicate) when the person answered the repeat question. */
export const createBatch = (body: BatchBody, headers: Record<string, string>) =>
  postBatch<BatchAnswer>("/api/batches", body, headers);

export const cancelBatch = (id: string) =>
  api<{ batch: Batch }>(`/api/batches/${encodeURIComponent(id)}/cancel`, { method: "POST" }).then((r) => r.batch);

export const resultsCsvPath = (id: string) => `/api/batches/${encodeURIComponent(id)}/results.csv`;

/** How long the page waits after a keystroke before asking for a preview. */
export const PREVIEW_AFTER_MS = 300;

/**
 * The preview of the batch as the page holds it: `source` tells one content from another (the
 * text itself, or a count of the files and plans put in; a file's bytes are no query key). The
 * form's check (its resolver) waits on the same query: it never reviews a batch not previewed.
 */
export const batchPreviewQuery = (body: BatchBody | null, source: string) =>
  queryOptions({
    queryKey: batchKeys.preview(body?.ref_id ?? "", source),
    queryFn: async ({ signal }) => {
      // A pause first, so typing asks once, not at every key; a newer change aborts this one.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, PREVIEW_AFTER_MS);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        });
      });
      return previewBatch(body!, signal);
    },
    enabled: body !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** The preview on screen: the last answer stays while the next is asked. */
export function useBatchPreview(body: BatchBody | null, source: string) {
  return useQuery({ ...batchPreviewQuery(body, source), placeholderData: keepPreviousData });
}

/** The batches, newest first. */
export function useBatches() {
  return useQuery({
    queryKey: batchKeys.list,
    queryFn: ({ signal }) => api<{ items: Batch[] }>("/api/batches", { signal }).then((r) => r.items),
    // As the other tables: while the stream is down, quicker while a batch is still open.
    refetchInterval: (q) =>
      streamUp() ? false : refreshEvery(q.state.data?.some((b) => isOpenBatch(b.status)) ?? false),
  });
}

/** One batch with its rows, kept current while it may still change: by the stream, or polled while it is down. */
export function useBatch(id: string | null, initial?: Batch) {
  return useQuery({
    queryKey: batchKeys.one(id ?? ""),
    queryFn: ({ signal }) =>
      api<{ batch: Batch }>(`/api/batches/${encodeURIComponent(id!)}`, { signal }).then((r) => r.batch),
    enabled: id !== null,
    ...(initial && initial.id === id ? { initialData: initial } : {}),
    // Read at once even with the create's answer in hand: its rows may all have gone (and their
    // events with them) before this card was drawn.
    staleTime: 0,
    refetchInterval: (q) => (streamUp() || (q.state.data && !isOpenBatch(q.state.data.status)) ? false : 1_000),
  });
}

/** The rebalancing targets, as saved. */
export function useRebalanceTargets(enabled: boolean) {
  return useQuery({
    queryKey: batchKeys.targets,
    queryFn: ({ signal }) =>
      api<{ targets: RebalanceTarget[] }>("/api/rebalance/targets", { signal }).then((r) => r.targets),
    enabled,
  });
}

export const saveRebalanceTargets = (targets: RebalanceTarget[]) =>
  api<{ targets: RebalanceTarget[] }>("/api/rebalance/targets", { method: "PUT", body: { targets } }).then(
    (r) => r.targets,
  );

/** The transfers that bring each profile with a target within its band, from today's balances. */
export function useRebalancePlan(enabled: boolean) {
  return useQuery({
    queryKey: batchKeys.plan,
    queryFn: ({ signal }) =>
      api<{ transfers: PlannedTransfer[]; short?: Shortfall[] }>("/api/rebalance/plan", { signal }).then((r) => ({
        transfers: r.transfers,
        short: r.short ?? [],
      })),
    enabled,
  });
}
