"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, useState, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { CsvButton } from "@/components/ui/csv-button";
import { DataTable } from "@/components/ui/data-table";
import { FilterBar, FilterSelect } from "@/components/ui/filter-bar";
import { LiveIndicator, refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { TableError, TableMessage } from "@/components/ui/table-message";
import { api, query } from "@/lib/client/api";
import { formatAmount } from "@/lib/client/format";
import { Time } from "@/lib/client/time-zone";
import { submitterOf } from "@/lib/client/order-rows";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys, useSubmitters, type Page } from "@/lib/client/queries";
import { decimalSorting, timeSorting } from "@/lib/client/sorting";
import {
  anyTransferLive,
  groupTransfers,
  incompleteGroupIds,
  TRANSFER_CSV_HEADER,
  transferCsvRows,
  transferKind,
  type TransferGroup,
} from "@/lib/client/transfer-rows";
import { TRANSFER_STATUSES } from "@/lib/spec/enums";
import { ASSETS } from "@/lib/spec/markets";
import type { Transfer } from "@/lib/spec/transfer";

/** Legs per page: an internal transfer has two, so about 25 transfers a page. */
const LEGS_PER_PAGE = 50;
const EMPTY_FILTERS = { profile: "", status: "", asset: "" };

interface TransferPage {
  legs: Transfer[];
  extra: Transfer[];
  next_page_cursor: string;
}

/**
 * A page of legs, plus the other leg of every internal transfer that has only one here
 * (it sits on the next page, or belongs to a profile the filter leaves out).
 */
async function fetchTransferPage(
  f: { profile: string; status: string; cursor: string | undefined },
  signal: AbortSignal,
): Promise<TransferPage> {
  const page = await api<Page<Transfer>>(
    `/api/v2/transfer/transfers${query({
      profile_ids: f.profile ? [f.profile] : undefined,
      statuses: f.status ? [f.status] : undefined,
      limit: String(LEGS_PER_PAGE),
      page_cursor: f.cursor,
    })}`,
    { signal },
  );
  const missing = incompleteGroupIds(page.items);
  const extra =
    missing.length === 0
      ? []
      : (
          await api<Page<Transfer>>(
            `/api/v2/transfer/transfers${query({ group_ids: missing, limit: String(missing.length * 2) })}`,
            { signal },
          )
        ).items;
  return { legs: page.items, extra, next_page_cursor: page.next_page_cursor };
}

const pageLive = (page: TransferPage | undefined): boolean =>
  anyTransferLive([...(page?.legs ?? []), ...(page?.extra ?? [])]);

/** Internal transfers as one row per group_id with both legs under it; deposits as single rows. */
export function TransfersTable() {
  const [filters, setFilters] = useState(EMPTY_FILTERS);
  // Asset is filtered here (the service has no asset filter), so it does not reset the pages.
  const serverFilters = { profile: filters.profile, status: filters.status };
  const pager = useCursorPager(JSON.stringify(serverFilters));
  const { profiles, nickname } = useProfileNames();
  // Rows whose legs the user toggled: internal transfers start open, lone records (deposits) closed.
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const isOpen = useMemo(() => (g: TransferGroup) => Boolean(g.groupId) !== toggled.has(g.key), [toggled]);

  const transfers = useQuery({
    queryKey: keys.transfers({ ...serverFilters, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) => fetchTransferPage({ ...serverFilters, cursor: pager.cursor }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => refreshEvery(pageLive(q.state.data)),
  });

  const data = transfers.data;
  // Every group of this server page, minus any already shown at the bottom of the page before.
  const pageGroups = useMemo(() => {
    if (!data) return undefined;
    const carried = new Set(pager.carry);
    return groupTransfers(data.legs, data.extra).filter((g) => !carried.has(g.key));
  }, [data, pager.carry]);
  const rows = useMemo(
    () => (filters.asset ? pageGroups?.filter((g) => g.asset === filters.asset) : pageGroups),
    [pageGroups, filters.asset],
  );
  const submitters = useSubmitters(
    "transfer",
    (pageGroups ?? []).map((g) => g.debit?.ref_id ?? ""),
  );
  const live = pageLive(data);

  const columns = useMemo<ColumnDef<TransferGroup, unknown>[]>(
    () => [
      {
        id: "expand",
        header: () => <span className="sr-only">Legs</span>,
        enableSorting: false,
        cell: ({ row }) => {
          const g = row.original;
          const open = isOpen(g);
          return (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={g.legs.map((l) => legRowId(g, l)).join(" ")}
              aria-label={`${open ? "Hide" : "Show"} the ${g.legs.length === 1 ? "record" : `${g.legs.length} legs`} of transfer ${shortId(g.groupId ?? g.key)}`}
              onClick={() =>
                setToggled((t) => {
                  const next = new Set(t);
                  if (next.has(g.key)) next.delete(g.key);
                  else next.add(g.key);
                  return next;
                })
              }
              className="rounded px-1 text-ink-muted hover:bg-surface-sunken hover:text-ink"
            >
              <span aria-hidden>{open ? "▾" : "▸"}</span>
            </button>
          );
        },
      },
      {
        id: "created_at",
        header: "Created",
        accessorFn: (g) => g.createdAt,
        sortingFn: timeSorting,
        cell: ({ row }) => <Time iso={row.original.createdAt} />,
      },
      { id: "kind", header: "Type", accessorFn: (g) => transferKind(g) },
      {
        id: "from",
        header: "From",
        accessorFn: (g) => partyName(g, g.debit, nickname),
        cell: dashIfBlank,
      },
      { id: "to", header: "To", accessorFn: (g) => partyName(g, g.credit, nickname), cell: dashIfBlank },
      { id: "asset", header: "Asset", accessorFn: (g) => g.asset },
      {
        id: "amount",
        header: "Amount",
        accessorFn: (g) => g.amount,
        sortingFn: decimalSorting,
        meta: { align: "right" },
        cell: ({ row }) => formatAmount(row.original.amount),
      },
      {
        id: "status",
        header: "Status",
        accessorFn: (g) => g.status,
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
      {
        id: "initiated_by",
        header: "Initiated by",
        accessorFn: (g) => submitterOf(g.debit?.ref_id ? submitters.data?.get(g.debit.ref_id) : undefined),
        cell: ({ row }) => {
          const ref = row.original.debit?.ref_id;
          return <SubmitterCell entry={ref ? submitters.data?.get(ref) : undefined} loading={submitters.isLoading} />;
        },
      },
      {
        id: "group_id",
        header: "Group ID",
        accessorFn: (g) => g.groupId ?? "",
        enableSorting: false,
        cell: ({ row }) =>
          row.original.groupId ? (
            <span className="font-mono text-xs text-ink-muted" title={row.original.groupId}>
              {shortId(row.original.groupId)}
            </span>
          ) : (
            "—"
          ),
      },
    ],
    [isOpen, nickname, submitters.data, submitters.isLoading, setToggled],
  );

  const anyFilter = Object.values(filters).some(Boolean);
  const set = (k: keyof typeof EMPTY_FILTERS) => (v: string) => setFilters((f) => ({ ...f, [k]: v }));

  return (
    <Card
      title="Transfers"
      actions={
        <div className="flex items-center gap-3">
          <LiveIndicator live={live} />
          <CsvButton
            name="transfers"
            header={TRANSFER_CSV_HEADER}
            rows={() => transferCsvRows(rows ?? [], nickname, submitters.data)}
            disabled={!rows?.length}
          />
        </div>
      }
    >
      <FilterBar label="Filter transfers" active={anyFilter} onClear={() => setFilters(EMPTY_FILTERS)}>
        <FilterSelect
          label="Profile"
          value={filters.profile}
          onChange={set("profile")}
          options={profiles.map((p) => ({ value: p.id, label: p.nickname }))}
        />
        <FilterSelect label="Status" value={filters.status} onChange={set("status")} options={TRANSFER_STATUSES} />
        <FilterSelect label="Asset" value={filters.asset} onChange={set("asset")} options={ASSETS} className="w-28" />
      </FilterBar>
      <div
        aria-busy={transfers.isFetching}
        className={transfers.isPlaceholderData ? "opacity-60 transition-opacity" : ""}
      >
        <DataTable
          caption="Transfers, one row per transfer with its legs below"
          columns={columns}
          data={rows}
          loading={transfers.isPending}
          error={
            transfers.isError && !transfers.data ? (
              <TableError error={transfers.error} what="transfers" onRetry={() => transfers.refetch()} />
            ) : undefined
          }
          empty={
            <TableMessage>
              {anyFilter
                ? "No transfers match these filters."
                : "No transfers yet. Internal transfers and deposits appear here."}
            </TableMessage>
          }
          rowKey={(g) => g.key}
          renderSubRows={(g) => <LegRows group={g} hidden={!isOpen(g)} width={columns.length} nickname={nickname} />}
          placeholderRows={10}
        />
      </div>
      <Pager
        label="Transfers pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(data?.next_page_cursor)}
        onPrevious={pager.previous}
        onNext={() =>
          pager.next(
            data?.next_page_cursor,
            pageGroups?.map((g) => g.key),
          )
        }
        busy={transfers.isFetching && transfers.isPlaceholderData}
        summary={rows ? `${rows.length} ${rows.length === 1 ? "transfer" : "transfers"}` : undefined}
      />
    </Card>
  );
}

/** A leg's profile; the far side of a deposit or withdrawal is outside the service. */
const partyName = (g: TransferGroup, leg: Transfer | undefined, nickname: (id: string) => string) =>
  leg ? nickname(leg.profile_id) : g.groupId ? "" : "External";
const dashIfBlank = ({ getValue }: { getValue: () => unknown }) => (getValue() as string) || "—";
const shortId = (id: string) => id.replace(/^(group|transfer):/, "").slice(0, 8);
const legRowId = (g: TransferGroup, leg: Transfer) => `leg-${g.key.replace(/[^A-Za-z0-9_-]/g, "-")}-${leg.id}`;

/** The records under a transfer row: each leg's id, direction, profile, status and metadata. */
function LegRows({
  group,
  hidden,
  width,
  nickname,
}: {
  group: TransferGroup;
  hidden: boolean;
  width: number;
  nickname: (id: string) => string;
}) {
  return (
    <>
      {group.legs.map((leg) => (
        <tr key={leg.id} id={legRowId(group, leg)} hidden={hidden} className="bg-surface-raised text-xs">
          <td aria-hidden className="px-3 py-1.5 text-right text-ink-faint">
            ↳
          </td>
          <td colSpan={width - 1} className="px-3 py-1.5">
            <dl className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <LegItem label="Direction">
                <span className={`font-semibold ${leg.direction === "DEBIT" ? "text-sell" : "text-buy"}`}>
                  {leg.direction}
                </span>
              </LegItem>
              <LegItem label="Profile">{nickname(leg.profile_id)}</LegItem>
              <LegItem label="Status">
                <StatusBadge status={leg.status} />
              </LegItem>
              <LegItem label="Amount">
                {formatAmount(leg.amount)} {leg.asset}
                {leg.fee && leg.fee !== "0" ? ` (fee ${formatAmount(leg.fee)})` : ""}
              </LegItem>
              <LegItem label="Transfer ID">
                <span className="font-mono">{leg.id}</span>
              </LegItem>
              {leg.ref_id && (
                <LegItem label="Ref ID">
                  <span className="font-mono">{leg.ref_id}</span>
                </LegItem>
              )}
              <LegItem label="Updated">
                <Time iso={leg.updated_at} />
              </LegItem>
              {leg.metadata && Object.keys(leg.metadata).length > 0 && (
                <LegItem label="Metadata">
                  <span className="inline-flex flex-wrap gap-1">
                    {Object.entries(leg.metadata).map(([k, v]) => (
                      <code key={k} className="rounded bg-surface-sunken px-1.5 py-0.5">
                        {k}={v}
                      </code>
                    ))}
                  </span>
                </LegItem>
              )}
            </dl>
          </td>
        </tr>
      ))}
    </>
  );
}

function LegItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-1.5 whitespace-nowrap">
      <dt className="text-ink-muted">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
