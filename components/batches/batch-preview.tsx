"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, type ReactNode } from "react";
import type { BatchPreview } from "@/lib/client/batches";
import { formatAsset, formatCount, formatMoney, formatUsd, parseAmountInput } from "@/lib/shared/format";
import { DECIMAL_PATTERN } from "@/lib/spec/decimal";
import { DataTable } from "../ui/data-table";
import { TableMessage } from "../ui/table-message";
import { cellKey, LINE_COLUMNS, shownLines, type BatchLine, type LineColumn, type PlacedErrors } from "./batch-lines";
import { shortBy, transfersCount } from "@/lib/shared/describe-batch";

/**
 * The batch as the back end read it, before anything is sent: what is wrong with the file as a
 * whole above the table; each transfer a row, each refused cell marked in place with its message
 * (aria-invalid, described by the message); then the totals per asset with their worth in USD,
 * and each sending profile's funds beside what the batch needs of them, a shortfall marked.
 */
export function BatchPreviewPanel({
  lines,
  placed,
  preview,
  checking,
  failed,
  nickname,
}: {
  lines: BatchLine[];
  placed: PlacedErrors;
  preview: BatchPreview | undefined;
  /** A preview of the batch as it is now is being asked. */
  checking: boolean;
  /** The preview could not be asked: why. */
  failed: ReactNode;
  nickname: (profileId: string) => string;
}) {
  const shown = useMemo(() => shownLines(lines, placed), [lines, placed]);
  const columns = useMemo(() => previewColumns(placed, nickname), [placed, nickname]);
  const refused = preview !== undefined && preview.errors.length > 0;
  const hidden = lines.length - shown.length;
  return (
    <section aria-labelledby="batch-preview-title" className="min-w-0 space-y-4" aria-busy={checking}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="batch-preview-title" className="text-sm font-semibold">
          Preview
        </h3>
        <p
          className="text-sm text-ink-muted"
          data-testid="preview-state"
          data-state={checking ? "checking" : failed ? "failed" : refused ? "refused" : preview ? "ready" : "empty"}
          aria-live="polite"
        >
          {checking
            ? "Checking the batch…"
            : failed
              ? "Not checked"
              : !preview
                ? "Paste CSV text or choose a file to see its transfers here."
                : refused
                  ? `Refused: ${problemsCount(preview.errors.length)} to fix`
                  : `${transfersCount(preview.rows.length)}, ready to submit`}
        </p>
      </div>
      {failed}
      {placed.file.length > 0 && (
        <div role="alert" data-testid="file-errors" className="rounded-md border border-sell/30 bg-sell-soft px-4 py-3">
          <p className="text-sm font-semibold text-sell">The file is refused:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-sell">
            {placed.file.map((e) => (
              <li key={`${e.row}:${e.field}:${e.message}`} data-field={e.field}>
                {e.row > 0 && e.field !== "file" ? `Row ${formatCount(e.row)}, ${e.field}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <DataTable
        caption="Transfers of the batch, as read from the file"
        columns={columns}
        data={shown}
        loading={false}
        empty={<TableMessage>No transfers yet.</TableMessage>}
        rowKey={(l) => String(l.row)}
        placeholderRows={3}
      />
      {hidden > 0 && (
        <p className="text-xs text-ink-muted">
          {`${formatCount(hidden)} more ${hidden === 1 ? "row" : "rows"} with nothing to fix, not shown here.`}
        </p>
      )}
      {preview && !refused && (
        <div className="grid gap-4 lg:grid-cols-2">
          <Totals totals={preview.totals} worth={preview.value_usd} />
          <Funds funds={preview.funds} nickname={nickname} />
        </div>
      )}
    </section>
  );
}

const problemsCount = (n: number) => `${formatCount(n)} problem${n === 1 ? "" : "s"}`;

const errorId = (row: number, column: string) => `batch-error-${row}-${column}`;

/** A profile as written: its nickname when the cell holds a profile's id. */
const profileText = (text: string | undefined, nickname: (id: string) => string) => (text ? nickname(text) : "");

/** An amount as written, grouped as the desk writes amounts when it is one. */
function amountText(text: string | undefined, asset: string | undefined): string {
  if (!text) return "";
  const plain = parseAmountInput(text);
  return DECIMAL_PATTERN.test(plain) ? formatAsset(plain, asset ?? "") : text;
}

/** What a line shows in a column: the row as read when the batch holds, else the cell as written. */
function valueOf(line: BatchLine, column: LineColumn, nickname: (id: string) => string): string {
  const read = line.read;
  const cells = line.cells;
  switch (column) {
    case "from":
      return read ? nickname(read.from_profile_id) : profileText(cells.from, nickname);
    case "to":
      return read ? nickname(read.to_profile_id) : profileText(cells.to, nickname);
    case "asset":
      return read?.asset ?? cells.asset ?? "";
    case "amount":
      return read ? formatAsset(read.amount, read.asset) : amountText(cells.amount, cells.asset);
    case "ref_id":
      return read?.ref_id ?? cells.ref_id ?? "";
    case "note":
      return read?.metadata?.note ?? cells.note ?? "";
  }
}

/** A value and, when refused, its messages under it (the cell is described by them). */
function Checked({ id, value, messages, mono }: { id: string; value: string; messages?: string[]; mono?: boolean }) {
  const text = value || (messages ? "(empty)" : "—");
  return (
    <>
      <span
        className={`${mono ? "font-mono text-xs break-all whitespace-normal" : ""} ${messages ? "font-semibold" : ""}`}
      >
        {text}
      </span>
      {messages && (
        <span id={id} className="mt-0.5 block max-w-72 text-xs font-medium whitespace-normal text-sell">
          {messages.join(" ")}
        </span>
      )}
    </>
  );
}

function previewColumns(placed: PlacedErrors, nickname: (id: string) => string): ColumnDef<BatchLine, unknown>[] {
  const invalid = (messages: string[] | undefined, id: string) =>
    messages ? { "aria-invalid": "true", "aria-describedby": id } : {};
  const rowColumn: ColumnDef<BatchLine, unknown> = {
    id: "row",
    header: "Row",
    meta: {
      cellAttributes: (l) => ({ ...invalid(placed.rows.get(l.row), errorId(l.row, "row")), "data-field": "row" }),
    },
    cell: ({ row: { original: l } }) => (
      <Checked id={errorId(l.row, "row")} value={formatCount(l.row)} messages={placed.rows.get(l.row)} />
    ),
  };
  return [
    rowColumn,
    ...LINE_COLUMNS.map((c): ColumnDef<BatchLine, unknown> => ({
      id: c.id,
      header: c.label,
      meta: {
        ...(c.id === "amount" ? { align: "right" as const } : {}),
        cellAttributes: (l) => ({
          ...invalid(placed.cells.get(cellKey(l.row, c.id)), errorId(l.row, c.id)),
          "data-field": c.id,
        }),
      },
      cell: ({ row: { original: l } }) => (
        <Checked
          id={errorId(l.row, c.id)}
          value={valueOf(l, c.id, nickname)}
          messages={placed.cells.get(cellKey(l.row, c.id))}
          mono={c.id === "ref_id"}
        />
      ),
    })),
  ];
}

/** Each asset's total and its worth in USD. */
function Totals({ totals, worth }: { totals: BatchPreview["totals"]; worth: string | null }) {
  return (
    <div data-testid="batch-totals">
      <h4 className="text-sm font-semibold">Totals</h4>
      <table className="mt-1 w-full text-sm tabular-nums">
        <caption className="sr-only">Totals of the batch per asset</caption>
        <thead className="text-xs text-ink-muted">
          <tr>
            <th scope="col" className="py-1 text-left font-medium">
              Asset
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Worth
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {totals.map((t) => (
            <tr key={t.asset} data-asset={t.asset}>
              <th scope="row" className="py-1 text-left font-medium">
                {t.asset}
              </th>
              <td className="py-1 text-right">{formatAsset(t.amount, t.asset)}</td>
              <td className="py-1 text-right">{t.value_usd ? formatUsd(t.value_usd) : "no USD price"}</td>
            </tr>
          ))}
        </tbody>
        {worth !== null && (
          <tfoot>
            <tr className="border-t border-slate-200 font-semibold">
              <th scope="row" className="py-1 text-left" colSpan={2}>
                In all
              </th>
              <td className="py-1 text-right" data-testid="batch-worth">
                {formatUsd(worth)}
              </td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** Each sending profile's funds beside what the batch needs of them; a shortfall marked, in words too. */
function Funds({ funds, nickname }: { funds: BatchPreview["funds"]; nickname: (id: string) => string }) {
  return (
    <div data-testid="batch-funds">
      <h4 className="text-sm font-semibold">Funds of the sending profiles</h4>
      <table className="mt-1 w-full text-sm tabular-nums">
        <caption className="sr-only">What the batch needs of each sending profile, beside what it has</caption>
        <thead className="text-xs text-ink-muted">
          <tr>
            <th scope="col" className="py-1 text-left font-medium">
              Profile
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Needs
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Available
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {funds.map((f) => {
            const short = shortBy(f);
            return (
              <tr
                key={`${f.profile_id}:${f.asset}`}
                data-profile={nickname(f.profile_id)}
                data-asset={f.asset}
                data-short={short ? "true" : "false"}
                className={short ? "text-sell" : ""}
              >
                <th scope="row" className="py-1 text-left font-medium">
                  {nickname(f.profile_id)}
                </th>
                <td className="py-1 text-right">{formatMoney(f.needed, f.asset)}</td>
                <td className="py-1 text-right">
                  {f.available === null ? "unknown" : formatMoney(f.available, f.asset)}
                  {short && (
                    <span className="block text-xs font-semibold" data-testid="shortfall">
                      {`short by ${formatMoney(short, f.asset)}`}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
