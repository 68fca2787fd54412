"use client";

import { SubRow } from "@/components/ui/data-table";
import { DetailItem, DetailList, IdItem, MetadataItem } from "@/components/ui/row-details";
import { StatusBadge } from "@/components/ui/status-badge";
import { formatAmount, formatAsset } from "@/lib/shared/format";
import { Time } from "@/lib/client/time-zone";
import type { TransferGroup } from "@/lib/shared/transfer-rows";
import { transferTypeWords } from "@/lib/shared/status-words";
import { legRowId } from "./columns";

/** The records under a transfer row: each leg's direction, profile, status, amount, ids and metadata. */
export function LegRows({
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
                {leg.direction === "DEBIT" ? "Out" : "In"} ({leg.direction})
              </span>
            </DetailItem>
            <DetailItem label="Profile">{nickname(leg.profile_id)}</DetailItem>
            <DetailItem label="Type">{transferTypeWords(leg.type)}</DetailItem>
            <DetailItem label="Status">
              <StatusBadge status={leg.status} />
            </DetailItem>
            <DetailItem label="Amount">
              {formatAsset(leg.amount, leg.asset)} {leg.asset}
              {leg.fee && leg.fee !== "0" ? ` (fee ${formatAmount(leg.fee)})` : ""}
            </DetailItem>
            <IdItem label="Transfer ID" id={leg.id} />
            <IdItem label="Ref ID" id={leg.ref_id} />
            <DetailItem label="Updated">
              <Time iso={leg.updated_at} />
            </DetailItem>
            <MetadataItem metadata={leg.metadata} />
          </DetailList>
        </SubRow>
      ))}
    </>
  );
}
