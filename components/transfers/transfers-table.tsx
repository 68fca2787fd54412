"use client";

import { useCallback, useMemo } from "react";
import { ListCard, ListSelect, ProfileSelect } from "@/components/ui/list-card";
import { useOpenRows } from "@/components/ui/row-details";
import { api, query } from "@/lib/client/api";
import {
  DAY_FILTERS,
  readPage,
  sortFilters,
  TECHNICAL_VIEW,
  useListPage,
  type ListPageState,
  type ListQuery,
} from "@/lib/client/list-page";
import { useProfileNames } from "@/lib/client/profile-names";
import { useSubmitters } from "@/lib/client/queries";
import { anyTransferLive, groupTransfers, incompleteGroupIds, type TransferGroup } from "@/lib/shared/transfer-rows";
import { AWAITING_APPROVAL, isHeldRow, type HeldTransfer, type PageWithHeld } from "@/lib/shared/held-requests";
import { useHeldRefresh } from "@/lib/client/held-refresh";
import { TRANSFER_SORTS, type Page } from "@/lib/shared/list-routes";
import { statusWords, TRANSFER_TYPE_WORDS } from "@/lib/shared/status-words";
import { TRANSFER_STATUSES, TRANSFER_TYPES } from "@/lib/spec/enums";
import { ASSETS } from "@/lib/spec/markets";
import type { Transfer } from "@/lib/spec/transfer";
import { TRANSFER_TECHNICAL_COLUMNS, transferColumns, transferRowKey, type TransferRow } from "./columns";
import { LegRows } from "./leg-rows";

/** Legs per page: an internal transfer has two, so about 25 transfers a page. */
const LEGS_PER_PAGE = 50;
/** The service's statuses, and the dashboard's own for transfers held for four eyes. */
const TRANSFER_STATUS_FILTER = [...TRANSFER_STATUSES, AWAITING_APPROVAL] as const;
/** Every filter and the sort, as the page's URL names them (GET /api/transfers's names where it has one). */
const FILTERS = {
  ...{ profile_ids: null, statuses: TRANSFER_STATUS_FILTER, type: TRANSFER_TYPES, asset: ASSETS },
  ...DAY_FILTERS,
  ...sortFilters(TRANSFER_SORTS),
  ...TECHNICAL_VIEW,
} as const;
const STATUSES = TRANSFER_STATUS_FILTER.map((s) => ({ value: s, label: statusWords(s) }));
const TYPES = TRANSFER_TYPES.map((t) => ({ value: t, label: TRANSFER_TYPE_WORDS[t] }));

/**
 * A page of legs, plus the other leg of every internal transfer that has only one among `items`;
 * the first page also carries the held transfers that match, drawn on top.
 */
type TransferPage = PageWithHeld<Transfer, HeldTransfer> & { extra: Transfer[] };

/**
 * The other leg of a transfer split from its pair sits on the next page, or belongs to a
 * profile the filter leaves out: it is read by group_id, so each transfer shows whole.
 */
async function fetchTransferPage(q: ListQuery, cursor: string | undefined, signal: AbortSignal): Promise<TransferPage> {
  const page = await readPage<PageWithHeld<Transfer, HeldTransfer>>("/api/transfers", LEGS_PER_PAGE)(q, cursor, signal);
  const missing = incompleteGroupIds(page.items);
  if (missing.length === 0) return { ...page, extra: [] };
  const url = `/api/v2/transfer/transfers${query({ group_ids: missing, limit: String(missing.length * 2) })}`;
  return { ...page, extra: (await api<Pick<Page<Transfer>, "items">>(url, { signal })).items };
}

const isGroup = (r: TransferRow): r is TransferGroup => !isHeldRow(r);

const SPEC = {
  filters: FILTERS,
  query: ({ profile_ids, statuses, type, asset }: Record<keyof typeof FILTERS, string>) => ({
    profile_ids,
    statuses,
    type,
    asset,
  }),
  sortWithin: "asset",
  route: "/api/transfers",
  pageSize: LEGS_PER_PAGE,
  fetchPage: fetchTransferPage,
  // The held transfers, then every group of the page, minus any already shown at the bottom of the page before.
  rows: (page: TransferPage, carried: ReadonlySet<string>): TransferRow[] => [
    ...(page.held ?? []),
    ...groupTransfers(page.items, page.extra).filter((g) => !carried.has(g.key)),
  ],
  rowKey: transferRowKey,
  live: (page: TransferPage | undefined) => anyTransferLive([...(page?.items ?? []), ...(page?.extra ?? [])]),
  pushed: true,
  noun: ["transfer", "transfers"],
  words: {
    title: "Transfers",
    caption: "Transfers, one row per transfer with its legs below",
    what: "transfers",
    empty: {
      filtered: "No transfers match these filters.",
      none: "No transfers yet. Internal transfers and deposits appear here.",
      read: "transfer legs",
    },
  },
  technical: { hint: "type codes, group ids", columns: TRANSFER_TECHNICAL_COLUMNS },
} as const;

/**
 * Internal transfers as one row per group_id, its legs folded under it until its ▸ opens them
 * (a desk's 25 transfers open took 5,570 px, issue 26); deposits as single rows; on top, the
 * transfers held for four eyes.
 */
export function TransfersTable() {
  const list = useListPage<keyof typeof FILTERS, TransferPage, TransferRow>(SPEC);
  useHeldRefresh("transfer", list.data?.held, list.list.refetch);
  const { nickname } = useProfileNames();
  const { isOpen, toggle } = useOpenRows(transferRowKey);
  const submitters = useSubmitters(
    "transfer",
    (list.rows ?? []).map((r) => (isGroup(r) && r.debit?.ref_id) || ""),
  );
  const { data: byRef, isLoading } = submitters;
  const initiator = useCallback(
    (g: TransferGroup) => ({ entry: g.debit?.ref_id ? byRef?.get(g.debit.ref_id) : undefined, loading: isLoading }),
    [byRef, isLoading],
  );
  const columns = useMemo(
    () => transferColumns({ nickname, isOpen, toggle, initiator }),
    [nickname, isOpen, toggle, initiator],
  );

  return (
    <ListCard
      list={list}
      columns={columns}
      filters={<TransferFilters list={list} />}
      renderSubRows={(r, width) =>
        isGroup(r) && <LegRows group={r} hidden={!isOpen(r)} width={width} nickname={nickname} />
      }
    />
  );
}

/** Profile (either side), status, type and asset; the days follow. */
function TransferFilters({ list }: { list: ListPageState<TransferRow> }) {
  return (
    <>
      <ProfileSelect list={list} name="profile_ids" />
      <ListSelect list={list} name="statuses" label="Status" options={STATUSES} className="w-36" />
      <ListSelect list={list} name="type" label="Type" options={TYPES} className="w-52" />
      <ListSelect list={list} name="asset" label="Asset" options={ASSETS} className="w-28" />
    </>
  );
}
