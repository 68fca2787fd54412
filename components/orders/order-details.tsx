"use client";

import { DetailItem, DetailList, IdItem, MetadataItem } from "@/components/ui/row-details";
import { ApprovedBy } from "@/components/ui/submitter-cell";
import { formatAmount } from "@/lib/shared/format";
import { hasFill } from "@/lib/shared/order-rows";
import { Time } from "@/lib/client/time-zone";
import type { Order } from "@/lib/spec/order";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import { OrderQualityItems } from "./order-quality";

/**
 * What the row has no room for: ids, time in force and expiry, its fills' VWAP and execution
 * quality (read once the details are opened), who, metadata.
 */
export function OrderDetails({
  order: o,
  submitter,
}: {
  order: Order;
  submitter: Pick<JournalEntry, "user_email" | "user_role" | "approval"> | undefined;
}) {
  return (
    <DetailList>
      <IdItem label="Order ID" id={o.id} />
      <IdItem label="Ref ID" id={o.ref_id} />
      <DetailItem label="Time in force">{o.time_in_force}</DetailItem>
      {o.expiration_date && (
        <DetailItem label="Expires">
          <Time iso={/^\d{13}$/.test(o.expiration_date) ? Number(o.expiration_date) : o.expiration_date} />
        </DetailItem>
      )}
      {/* The order's own fills, as the service reports them: its quality's fill VWAP. */}
      <DetailItem label="Fill VWAP">
        {hasFill(o.amount_filled) ? formatAmount(o.volume_weighted_average_price, { min: 2 }) : "—"}
      </DetailItem>
      <OrderQualityItems order={o} />
      <DetailItem label="Updated">
        <Time iso={o.modified_at} />
      </DetailItem>
      <DetailItem label="Submitted by">
        {submitter ? `${submitter.user_email} (${submitter.user_role})` : "outside the dashboard"}
      </DetailItem>
      {submitter?.approval && (
        <DetailItem label="Approved">
          <ApprovedBy entry={submitter} />
        </DetailItem>
      )}
      {o.recipient_profile_id && <DetailItem label="Recipient profile">{o.recipient_profile_id}</DetailItem>}
      {o.identity_id && (
        <DetailItem label="Identity">
          {o.identity_id} / {o.identity_account_id}
        </DetailItem>
      )}
      <MetadataItem metadata={o.metadata} />
    </DetailList>
  );
}
