"use client";

import { FilterInput } from "@/components/ui/filter-bar";
import { ListCard, ListSelect } from "@/components/ui/list-card";
import { DAY_FILTERS, useListPage } from "@/lib/client/list-page";
import {
  AUDIT_ACTION_WORDS,
  AUDIT_ACTIONS,
  AUDIT_EVENT_FILTERS,
  AUDIT_FAMILIES,
  type AuditEntryView,
} from "@/lib/shared/audit-events";
import type { Page } from "@/lib/shared/list-routes";
import { AUDIT_COLUMNS } from "./columns";
import { VerifyChain } from "./verify-chain";

const FILTERS = { event: AUDIT_EVENT_FILTERS, user: null, ...DAY_FILTERS } as const;
/**
 * Families first (every event of a kind), then each event on its own. An event named like its
 * family ("sign-in") is the family's value already, which takes the family's every event.
 */
const EVENTS = [
  ...Object.entries(AUDIT_FAMILIES).map(([value, label]) => ({ value, label: `${label} (all)` })),
  ...AUDIT_ACTIONS.filter((a) => !(a in AUDIT_FAMILIES)).map((a) => ({ value: a, label: AUDIT_ACTION_WORDS[a] })),
];

const SPEC = {
  filters: FILTERS,
  query: ({ event, user }: Record<keyof typeof FILTERS, string>) => ({ event, user }),
  typed: "user",
  route: "/api/audit",
  pageSize: 50,
  noun: ["event", "events"],
  words: {
    title: "Audit trail",
    caption: "Audit trail: every event, newest first",
    what: "the audit trail",
    empty: { filtered: "Nothing matches these filters.", none: "No events yet." },
  },
  rowKey: (e: AuditEntryView) => String(e.seq),
} as const;

/**
 * The audit trail for an admin: every sign-in, create, approval, cancel, policy change and
 * export, filtered by event, user and days, exported as CSV, and its hash chain verified.
 */
export function AuditTable() {
  const list = useListPage<keyof typeof FILTERS, Page<AuditEntryView>>(SPEC);
  const [userText, setUserText] = list.typed;
  return (
    <ListCard
      list={list}
      actions={<VerifyChain />}
      filters={
        <>
          <ListSelect list={list} name="event" label="Event" options={EVENTS} className="w-56" primary />
          <FilterInput
            label="User"
            type="search"
            value={userText}
            onChange={setUserText}
            placeholder="any part of the email"
            className="w-56"
          />
        </>
      }
      columns={AUDIT_COLUMNS}
    />
  );
}
