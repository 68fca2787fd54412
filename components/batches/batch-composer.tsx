"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState, type DragEvent, type ReactNode } from "react";
import { FormProvider, useForm, useFormContext, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { problemOf } from "@/lib/client/api";
import {
  batchPreviewQuery,
  createBatch,
  useBatchPreview,
  type BatchAnswer,
  type BatchBody,
  type BatchPreview,
} from "@/lib/client/batches";
import { useProfileNames } from "@/lib/client/profile-names";
import type { Batch } from "@/lib/shared/batch";
import { formatCount, formatUsd } from "@/lib/shared/format";
import type { PlannedTransfer } from "@/lib/shared/rebalance-plan";
import { newRefId } from "@/lib/shared/ref-id";
import { CreateFooter } from "../forms/create-footer";
import { RefIdField } from "../forms/form-fields";
import { inDeskWords } from "../forms/server-problem";
import { useCreateFlow } from "../forms/use-create-flow";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Field, inputClass } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { linesOfCsv, linesOfPlan, placeErrors, withRowsRead, type BatchLine } from "./batch-lines";
import { BatchPreviewPanel } from "./batch-preview";
import { describeBatch, transfersCount } from "@/lib/shared/describe-batch";

/** Where the batch's transfers come from: text pasted (the form's `csv`), a file dropped or chosen, or a rebalancing plan. */
export type BatchSource =
  | { kind: "text" }
  | { kind: "file"; file: Blob; name: string; text: string; n: number }
  | { kind: "plan"; transfers: PlannedTransfer[]; n: number };

interface BatchValues {
  ref_id: string;
  csv: string;
}

/** What the form hands over once the batch holds: the body to send, and its preview (for the review's words). */
interface BatchOutput {
  request: BatchBody;
  preview: BatchPreview;
}

/** What the check needs beside the fields: where the transfers come from, and the cache that holds their preview. */
interface BatchCheck {
  source: BatchSource;
  queryClient: QueryClient;
}

const NOTHING = "Paste the batch's CSV text, or choose or drop a CSV file";

/**
 * The batch is checked by the back end's preview, the one reader of files: the form waits for
 * the preview of the batch as it is now, and goes to review only when nothing in it is refused.
 * The batch's own ref_id, when refused, is marked on its field; the rest in the preview.
 */
const batchResolver: Resolver<BatchValues, unknown, BatchOutput> = async (values, context) => {
  const { source, queryClient } = context as BatchCheck;
  const body = bodyOf(source, values);
  const refuse = (errors: FieldErrors<BatchValues>) => ({ values: {}, errors });
  if (!body) return refuse({ csv: { type: "required", message: NOTHING } });
  let preview: BatchPreview;
  try {
    preview = await queryClient.fetchQuery(batchPreviewQuery(body, sourceKey(source, values.csv)));
  } catch (error) {
    const message = `The batch could not be checked: ${problemOf(error).detail ?? problemOf(error).title}`;
    return refuse({ csv: { type: "preview", message } });
  }
  const errors: FieldErrors<BatchValues> = {};
  const own = preview.errors.find((e) => e.row === 0 && e.field === "ref_id");
  if (own) errors.ref_id = { type: "server", message: own.message };
  const rest = preview.errors.length - (own ? 1 : 0);
  if (rest > 0) {
    const problems = `${formatCount(rest)} problem${rest === 1 ? "" : "s"}`;
    errors.csv = { type: "refused", message: `The batch is refused: fix the ${problems} shown in the preview` };
  }
  if (Object.keys(errors).length > 0) return refuse(errors);
  return { values: { request: body, preview }, errors: {} };
};

/** The body the page would send now, or null with nothing to send. */
function bodyOf(source: BatchSource, values: BatchValues): BatchBody | null {
  const ref_id = values.ref_id.trim();
  if (source.kind === "file") return { kind: "csv", ref_id, csv: source.file, name: source.name };
  if (source.kind === "plan") return { kind: "json", ref_id, transfers: source.transfers };
  return values.csv.trim() ? { kind: "csv", ref_id, csv: values.csv } : null;
}

/** What tells one content from another in the preview's query key. */
const sourceKey = (source: BatchSource, csv: string) =>
  source.kind === "text" ? `text:${csv}` : `${source.kind}:${source.n}`;

/**
 * A new batch: its ref_id (a fresh one to start with), its transfers pasted as CSV text or
 * dropped as a file (or filled from the rebalancing plan, `source`), previewed by the back end
 * at each change; "Submit batch" opens the review (the transfer form's: the totals in words, and
 * whether it is sent or waits for approval), which sends it. `onSent` gets the batch made, for
 * its progress.
 */
export function BatchComposer({
  source,
  setSource,
  onSent,
  controlsLine,
}: {
  source: BatchSource;
  setSource: (next: BatchSource) => void;
  onSent: (batch: Batch) => void;
  controlsLine: ReactNode;
}) {
  const { nickname, profiles } = useProfileNames();
  const queryClient = useQueryClient();
  const form = useForm<BatchValues, unknown, BatchOutput>({
    resolver: batchResolver,
    defaultValues: { ref_id: newRefId(), csv: "" },
    mode: "onSubmit",
    context: { source, queryClient } satisfies BatchCheck,
  });
  const values = useWatch({ control: form.control }) as BatchValues;
  const body = bodyOf(source, values);
  const key = sourceKey(source, values.csv);

  const flow = useCreateFlow<BatchValues, BatchOutput, BatchAnswer>(form, {
    send: ({ request }, headers) =>
      createBatch(request, headers).then((answer) => {
        onSent(answer.batch);
        setSource({ kind: "text" });
        return answer.approval ? { approval: answer.approval } : answer;
      }),
    // The answer "don't send" is the page's alone: nothing was sent, and no other request is made.
    decline: () => Promise.resolve(),
    declinedDetail: "Nothing was sent.",
    refresh: ["batches", "balances", "activity", "approvals", "rebalance"],
    clearAfterSend: ["csv"],
    focusAfterSend: () => "csv",
  });

  const preview = useBatchPreview(body, key);
  const current = preview.isPlaceholderData ? undefined : preview.data;
  const lines = useMemo((): BatchLine[] => {
    if (source.kind === "plan") return linesOfPlan(source.transfers);
    return linesOfCsv(source.kind === "file" ? source.text : values.csv);
  }, [source, values.csv]);
  const shownPreview = body ? preview.data : undefined;
  const placed = useMemo(
    () =>
      placeErrors(
        (shownPreview?.errors ?? []).filter((e) => !(e.row === 0 && e.field === "ref_id")),
        lines,
      ),
    [shownPreview, lines],
  );
  const readLines = useMemo(() => withRowsRead(lines, shownPreview?.rows ?? []), [lines, shownPreview]);
  const ownRefError = current?.errors.find((e) => e.row === 0 && e.field === "ref_id")?.message;

  return (
    <Card title="New batch">
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,380px)_minmax(0,1fr)]">
        <FormProvider {...form}>
          <form onSubmit={flow.openReview} noValidate aria-label="Batch of transfers" className="min-w-0 space-y-4">
            <fieldset disabled={flow.review !== null} className="space-y-4">
              <RefIdField what="batch" fresh={newRefId} />
              {ownRefError && !form.formState.errors.ref_id && (
                <p className="text-xs font-medium text-sell" data-testid="batch-ref-error">
                  {ownRefError}
                </p>
              )}
              <TransfersInput source={source} setSource={setSource} locked={flow.review !== null} />
            </fieldset>
            <CreateFooter
              what="batch"
              submitLabel="Submit batch"
              flow={flow}
              describe={({ request, preview: p }) => ({
                sentence: describeBatch(p),
                details: [
                  ["ref_id", request.ref_id],
                  ["source", request.kind === "json" ? "rebalancing plan" : (request.name ?? "CSV text")],
                ],
                controls: {
                  note: <ControlsNote preview={p} profiles={profiles} />,
                  holds: p.outcome === "hold",
                  checking: false,
                },
              })}
              controlsLine={controlsLine}
              result={({ batch }) => (
                <p role="status" className="text-sm" data-testid="batch-sent">
                  {`Batch ${batch.ref_id} of ${transfersCount(batch.rows.length || countOf(batch))} submitted: its progress is below.`}
                </p>
              )}
            />
          </form>
        </FormProvider>
        <BatchPreviewPanel
          lines={readLines}
          placed={placed}
          preview={shownPreview}
          checking={body !== null && (preview.isFetching || preview.isPlaceholderData)}
          failed={
            preview.isError && body ? (
              <ProblemAlert problem={problemOf(preview.error)} title="The batch could not be previewed" />
            ) : null
          }
          nickname={nickname}
        />
      </div>
    </Card>
  );
}

const countOf = (b: Batch) => b.counts.waiting + b.counts.sent + b.counts.failed + b.counts.skipped;

/**
 * The transfers: CSV text pasted in the box, or a file chosen or dropped on it (its bytes sent as
 * they are, so an encoding or byte-order mark is named by the back end); a rebalancing plan put
 * in shows as such. Either can be cleared back to the box.
 */
function TransfersInput({
  source,
  setSource,
  locked,
}: {
  source: BatchSource;
  setSource: (next: BatchSource) => void;
  /** The review is open: what it shows is what is sent, so nothing is dropped in meanwhile. */
  locked: boolean;
}) {
  const { register, formState, setValue } = useFormContext<BatchValues>();
  const [over, setOver] = useState(false);
  const files = useRef(0);
  const take = async (file: File | undefined) => {
    if (!file) return;
    const bytes = await file.arrayBuffer();
    // Shown as text when it reads as UTF-8; the back end reads the bytes themselves (and says
    // what is wrong with a file that does not: its rows are not drawn as garbled text meanwhile).
    const decoded = new TextDecoder("utf-8").decode(bytes);
    const text = /[\0\uFFFD]/.test(decoded) ? "" : decoded;
    setValue("csv", "");
    setSource({ kind: "file", file, name: file.name, text, n: ++files.current });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!locked) void take(event.dataTransfer.files[0]);
  };
  const error = formState.errors.csv?.message;
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setOver(!locked);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="batch-drop"
      className={`space-y-2 rounded-md ${over ? "outline-2 outline-dashed outline-brand" : ""}`}
    >
      {source.kind === "text" ? (
        <Field
          label="Transfers (CSV)"
          error={error}
          hint="A header row of from_profile, to_profile, asset, amount, and optionally ref_id and note; profiles by nickname or id. Paste it here, or drop a file."
        >
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={7}
              spellCheck={false}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              placeholder={"from_profile,to_profile,asset,amount\nTreasury,Settlement,USD,1250.00"}
              className={`${inputClass(invalid)} font-mono text-xs`}
              {...register("csv")}
            />
          )}
        </Field>
      ) : (
        <Field label="Transfers" error={error}>
          {({ id, describedBy }) => (
            <div
              id={id}
              role="group"
              aria-label="Transfers"
              aria-describedby={describedBy}
              className="flex items-center justify-between gap-2 rounded-md border border-slate-300 bg-surface-raised px-3 py-2 text-sm"
            >
              <span className="min-w-0 break-all" data-testid="batch-source">
                {source.kind === "file"
                  ? `File ${source.name}`
                  : `The rebalancing plan: ${transfersCount(source.transfers.length)}`}
              </span>
              <Button variant="secondary" size="sm" onClick={() => setSource({ kind: "text" })}>
                Clear
              </Button>
            </div>
          )}
        </Field>
      )}
      <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-brand underline-offset-2 hover:underline has-focus-visible:outline-2 has-focus-visible:outline-brand">
        <input
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          onChange={(e) => {
            void take(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
        Choose a CSV file…
      </label>
    </div>
  );
}

/** The review's account of what the desk's controls will do with the batch, from its preview. */
function ControlsNote({
  preview: p,
  profiles,
}: {
  preview: BatchPreview;
  profiles: { id: string; nickname: string }[];
}) {
  return (
    <div className="space-y-1 text-sm" data-testid="controls-note" data-outcome={p.outcome ?? ""}>
      {p.outcome === "send" && <p data-testid="sent-at-once">It is sent at once, row by row: no approval is needed.</p>}
      {p.outcome === "hold" && (
        <div className="space-y-1 font-semibold text-warn" data-testid="needs-approval">
          <p>
            {p.hold
              ? `It needs approval by ${p.hold.rule.approvals_needed === 1 ? "an approver" : "two approvers"} before any of it is sent (${p.hold.rule.kind}s of ${formatUsd(p.hold.rule.threshold_usd)} or more).`
              : "It needs approval by an approver before any of it is sent."}
          </p>
          {p.hold?.reason && <p>{`${p.hold.reason}.`}</p>}
          {p.hold && p.hold.approvers.length > 0 && (
            <p>{`It waits for ${p.hold.approvers.map((r) => `an ${r}`).join(" or ")} other than you.`}</p>
          )}
        </div>
      )}
      {p.outcome === "refuse" && p.problem && (
        <p role="alert" className="font-semibold text-sell" data-testid="will-refuse">
          {`The desk will refuse it: ${inDeskWords(p.problem, "batch", profiles).detail ?? p.problem.title}`}
        </p>
      )}
    </div>
  );
}
