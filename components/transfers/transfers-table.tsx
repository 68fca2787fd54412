"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef, SortingState } from "@tanstack/react-table";
import { useMemo } from "react";
import { Card } from "@/components/ui/card";
import { DataTable, SubRow } from "@/components/ui/data-table";
import { DateRangeFilter, useDayRange } from "@/components/ui/date-range-filter";
import { FilterBar, FilterSelect } from "@/components/ui/filter-bar";
import { refreshEvery } from "@/components/ui/live-indicator";
import { Pager, useCursorPager } from "@/components/ui/pager";
import { DetailItem, DetailList, ExpandButton, useOpenRows } from "@/components/ui/row-details";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitterCell } from "@/components/ui/submitter-cell";
import { TableActions } from "@/components/ui/table-actions";
import { FetchShade, TableMessage, tableStateOf } from "@/components/ui/table-message";
import { api, query } from "@/lib/client/api";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { listSummary } from "@/lib/shared/list-summary";
import { streamUp } from "@/lib/client/live-status";
import { useProfileNames } from "@/lib/client/profile-names";
import { keys, useSubmitters, type Page } from "@/lib/client/queries";
import { Time } from "@/lib/client/time-zone";
import {
  anyTransferLive,
  groupTransfers,
  incompleteGroupIds,
  transferKind,
  type TransferGroup,
} from "@/lib/shared/transfer-rows";
import { useUrlFilters, type FilterSpec } from "@/lib/client/url-filters";
import { TRANSFER_SORTS, type ListPage } from "@/lib/shared/list-routes";
import { TRANSFER_STATUSES, TRANSFER_TYPES } from "@/lib/spec/enums";
import { ASSETS } from "@/lib/spec/markets";
import type { Transfer } from "@/lib/spec/transfer";

/** Legs per page: an internal transfer has two, so about 25 transfers a page. */
const LEGS_PER_PAGE = 50;
/** Every filter and the sort, as the page's URL names them (GET /api/transfers's names where it has one). */
const FILTERS = {
  profile_ids: null,
  statuses: TRANSFER_STATUSES,
  type: TRANSFER_TYPES,
  asset: ASSETS,
  from: null,
  to: null,
  sort: TRANSFER_SORTS,
  dir: ["asc", "desc"],
} as const satisfies FilterSpec<string>;
const SORT_HINT = "Choose an asset to sort by amount: amounts of different assets do not compare";

type TransferQuery = Record<string, string | undefined>;

interface TransferPage extends ListPage<Transfer> {
  /** The other leg of every internal transfer that has only one among `items`. */
  extra: Transfer[];
}

/**
 * A page of legs, plus the other leg of every internal transfer that has only one here
 * (it sits on the next page, or belongs to a profile the filter leaves out).
 */
async function fetchTransferPage(
  q: TransferQuery,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<TransferPage> {
  const page = await api<ListPage<Transfer>>(`/api/transfers${query({ ...q, limit: String(LEGS_PER_PAGE), cursor })}`, {
    signal,
  });
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
  return { ...page, extra };
}

const pageLive = (page: TransferPage | undefined): boolean =>
  anyTransferLive([...(page?.items ?? []), ...(page?.extra ?? [])]);

const groupKey = (g: TransferGroup) => g.key;
// Internal transfers start with their legs shown; lone records (deposits) closed.
const openByDefault = (g: TransferGroup) => Boolean(g.groupId);

/** Internal transfers as one row per group_id with both legs under it; deposits as single rows. */
export function TransfersTable() {
  const { filters, update, clear, active } = useUrlFilters(FILTERS);
  const sort = filters.asset && filters.sort ? filters.sort : undefined;
  const listQuery: TransferQuery = {
    profile_ids: filters.profile_ids || undefined,
    statuses: filters.statuses || undefined,
    type: filters.type || undefined,
    asset: filters.asset || undefined,
    ...useDayRange(filters.from, filters.to),
  };
  const sortQuery = { sort, dir: sort ? filters.dir || "desc" : undefined };
  const pager = useCursorPager(JSON.stringify({ ...listQuery, ...sortQuery }));
  const { profiles, nickname } = useProfileNames();
  const { isOpen, toggle } = useOpenRows(groupKey, openByDefault);

  const transfers = useQuery({
    queryKey: keys.transfers({ ...listQuery, ...sortQuery, cursor: pager.cursor ?? "" }),
    queryFn: ({ signal }) => fetchTransferPage({ ...listQuery, ...sortQuery }, pager.cursor, signal),
    placeholderData: keepPreviousData,
    // Pushed by GET /api/events while it is up; polled while it is down.
    refetchInterval: (q) => (streamUp() ? false : refreshEvery(pageLive(q.state.data))),
  });

  const data = transfers.data;
  // Every group of this page, minus any already shown at the bottom of the page before.
  const rows = useMemo(() => {
    if (!data) return undefined;
    const carried = new Set(pager.carry);
    return groupTransfers(data.items, data.extra).filter((g) => !carried.has(g.key));
  }, [data, pager.carry]);
  const submitters = useSubmitters(
    "transfer",
    (rows ?? []).map((g) => g.debit?.ref_id ?? ""),
  );
  const live = pageLive(data);

  const sorting: SortingState = sort ? [{ id: sort, desc: filters.dir !== "asc" }] : [];
  const sortable = Boolean(filters.asset);
  const columns = useMemo<ColumnDef<TransferGroup, unknown>[]>(
    () => [
      {
        id: "transfer",
        header: "Transfer",
        meta: { sticky: "left", label: "", sortHint: "Newest first, as the service lists them" },
        cell: ({ row }) => {
          const g = row.original;
          const open = isOpen(g);
          return (
            <div className="flex items-start gap-1.5">
              <ExpandButton
                open={open}
                controls={g.legs.map((l) => legRowId(g, l)).join(" ")}
                label={`${open ? "Hide" : "Show"} the ${g.legs.length === 1 ? "record" : `${g.legs.length} legs`} of transfer ${shortId(g.groupId ?? g.key)}`}
                onClick={() => toggle(g)}
              />
              <div className="leading-tight">
                <Time iso={g.createdAt} />
                <div className="text-xs text-ink-muted">{transferKind(g)}</div>
              </div>
            </div>
          );
        },
      },
      {
        id: "between",
        header: "From → To",
        cell: ({ row }) => {
          const g = row.original;
          return `${partyName(g, g.debit, nickname) || "—"} → ${partyName(g, g.credit, nickname) || "—"}`;
        },
      },
      {
        id: "amount",
        header: "Amount",
        enableSorting: sortable,
        meta: { align: "right", sortHint: SORT_HINT },
        cell: ({ row }) => (
          <>
            {formatAsset(row.original.amount, row.original.asset)}{" "}
            <span className="text-xs text-ink-muted">{row.original.asset}</span>
          </>
        ),
      },
      {
        id: "status",
        header: "Status",
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
      {
        id: "initiated_by",
        header: "Initiated by",
        cell: ({ row }) => {
          const ref = row.original.debit?.ref_id;
          return <SubmitterCell entry={ref ? submitters.data?.get(ref) : undefined} loading={submitters.isLoading} />;
        },
      },
      {
        id: "group_id",
        header: "Group ID",
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
    [isOpen, toggle, nickname, submitters.data, submitters.isLoading, sortable],
  );

  const { sort: _sort, dir: _dir, ...exportQuery } = { ...listQuery, ...sortQuery };

  return (
    <Card
      title="Transfers"
      actions={<TableActions live={live} exportPath="/api/transfers/export.csv" filters={exportQuery} />}
    >
      <FilterBar label="Filter transfers" active={active} onClear={clear}>
        <FilterSelect
          label="Profile"
          value={filters.profile_ids}
          onChange={(v) => update({ profile_ids: v })}
          options={profiles.map((p) => ({ value: p.id, label: p.nickname }))}
          primary
        />
        <FilterSelect
          label="Status"
          value={filters.statuses}
          onChange={(v) => update({ statuses: v })}
          options={TRANSFER_STATUSES}
          className="w-36"
        />
        <FilterSelect
          label="Type"
          value={filters.type}
          onChange={(v) => update({ type: v })}
          options={TRANSFER_TYPES.map((t) => ({ value: t, label: t.replace(/_/g, " ").toLowerCase() }))}
          className="w-52"
        />
        <FilterSelect
          label="Asset"
          value={filters.asset}
          onChange={(v) => update({ asset: v })}
          options={ASSETS}
          className="w-28"
        />
        <DateRangeFilter from={filters.from} to={filters.to} onChange={update} />
      </FilterBar>
      <FetchShade query={transfers}>
        <DataTable
          caption="Transfers, one row per transfer with its legs below"
          columns={columns}
          data={rows}
          {...tableStateOf(transfers, "transfers")}
          empty={
            <TableMessage>
              {active
                ? data?.truncated
                  ? `No match among the ${data.scanned.toLocaleString("en-US")} transfer legs read; Next reads on.`
                  : "No transfers match these filters."
                : "No transfers yet. Internal transfers and deposits appear here."}
            </TableMessage>
          }
          rowKey={groupKey}
          renderSubRows={(g) => <LegRows group={g} hidden={!isOpen(g)} width={columns.length} nickname={nickname} />}
          sorting={{
            state: sorting,
            onChange: (next) =>
              update({ sort: next[0]?.id ?? "", dir: next[0] ? (next[0].desc ? "desc" : "asc") : "" }),
          }}
          placeholderRows={10}
        />
      </FetchShade>
      <Pager
        label="Transfers pages"
        page={pager.page}
        hasPrevious={pager.hasPrevious}
        hasNext={Boolean(data?.next_cursor)}
        onPrevious={pager.previous}
        onNext={() =>
          pager.next(
            data?.next_cursor,
            rows?.map((g) => g.key),
          )
        }
        busy={transfers.isFetching && transfers.isPlaceholderData}
        summary={
          data &&
          rows &&
          listSummary({
            shown: rows.length,
            noun: ["transfer", "transfers"],
            hasNext: Boolean(data.next_cursor),
            // The back end says when it applied filters the service could not (asset, type, statuses beside profiles).
            scanned: data.walked || sort || data.truncated ? data.scanned : undefined,
            truncated: data.truncated,
          })
        }
      />
    </Card>
  );
}

/** A leg's profile; the far side of a deposit or withdrawal is outside the service. */
const partyName = (g: TransferGroup, leg: Transfer | undefined, nickname: (id: string) => string) =>
  leg ? nickname(leg.profile_id) : g.groupId ? "" : "External";
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
        <SubRow key={leg.id} id={legRowId(group, leg)} hidden={hidden} width={width}>
          <DetailList>
            <DetailItem label="Direction">
              <span className={`font-semibold ${leg.direction === "DEBIT" ? "text-sell" : "text-buy"}`}>
                {leg.direction}
              </span>
            </DetailItem>
            <DetailItem label="Profile">{nickname(leg.profile_id)}</DetailItem>
            <DetailItem label="Status">
              <StatusBadge status={leg.status} />
            </DetailItem>
            <DetailItem label="Amount">
              {formatAsset(leg.amount, leg.asset)} {leg.asset}
              {leg.fee && leg.fee !== "0" ? ` (fee ${formatAmount(leg.fee)})` : ""}
            </DetailItem>
            <DetailItem label="Transfer ID">
              <span className="font-mono">{leg.id}</span>
            </DetailItem>
            {leg.ref_id && (
              <DetailItem label="Ref ID">
                <span className="font-mono">{leg.ref_id}</span>
              </DetailItem>
            )}
            <DetailItem label="Updated">
              <Time iso={leg.updated_at} />
            </DetailItem>
            {leg.metadata && Object.keys(leg.metadata).length > 0 && (
              <DetailItem label="Metadata">
                <span className="inline-flex flex-wrap gap-1">
                  {Object.entries(leg.metadata).map(([k, v]) => (
                    <code key={k} className="rounded bg-surface-sunken px-1.5 py-0.5">
                      {k}={v}
                    </code>
                  ))}
                </span>
              </DetailItem>
            )}
          </DetailList>
        </SubRow>
      ))}
    </>
  );
}
