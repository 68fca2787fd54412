import "server-only";
import type { Approval, PolicyProposal } from "@/lib/shared/approval";
import { describeApproval } from "@/lib/shared/describe-approval";
import { moved } from "@/lib/shared/describe-transfer";
import { formatTime, formatUsd } from "@/lib/shared/format";
import { approvalHref } from "@/lib/shared/held-requests";
import type { Nickname } from "@/lib/shared/named-profiles";
import { changeWords, proposalChanges } from "@/lib/shared/policy-changes";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";

/**
 * The emails' words (issue 30), plain text: a request waiting for four eyes, told to those who may
 * decide it; its decision, told to its requester; a webhook turned off, told to the admins. Each
 * says what (in the words the pages use), how much, who asked and when it expires, and links to
 * the request's page, where it is decided signed in: an email never carries a link that decides.
 */

export interface EmailWords {
  subject: string;
  text: string;
}

export interface WordsContext {
  /** A profile's nickname by its id (the id itself when unknown). */
  nickname: Nickname;
  /** The dashboard's address as its people open it (NEXTAUTH_URL), without a trailing slash. */
  baseUrl: string;
  /** "Alex Approver <approver@example.com>", or the address alone. */
  person: (email: string) => string;
}

/** "Internal transfer of 15,000.00 USD from Treasury to Settlement", "Buy 0.2 BTC at … from Trading". */
export function approvalHeadline(a: Approval, nickname: Nickname): string {
  if (a.kind === "policy") return "Change to the desk's policy";
  if (a.kind === "transfer") {
    const t = a.request as unknown as CreateInternalTransferRequest;
    return `Internal transfer of ${moved(t.amount, t.asset, { from: nickname(t.from_profile_id), to: nickname(t.to_profile_id) })}`;
  }
  return describeApproval(a, nickname).replace(/\.$/, "");
}

/** An instant both ways: "2026-11-23 17:04:28 UTC (2026-11-23T17:04:28.000Z)". */
export const timeWords = (iso: string): string => `${formatTime(iso, "UTC")} (${iso})`;

/** Where the request is shown on the Approvals page: the one link an email carries. */
export const requestLink = (a: Pick<Approval, "id">, baseUrl: string): string => `${baseUrl}${approvalHref(a.id)}`;

/** What it is worth, or a policy change's changes. */
function valueLines(a: Approval): string[] {
  if (a.kind === "policy") {
    const changes = proposalChanges(a.request as unknown as PolicyProposal, formatUsd);
    return ["Changes:", ...changes.map((c) => `  - ${changeWords(c)}${c.loosens ? " (loosens)" : ""}`)];
  }
  return [`Value: ${a.value_usd === null ? "not known: no market prices it in USD" : formatUsd(a.value_usd)}`];
}

/** Where each person turns these emails off: their own Notifications page. */
const footer = (baseUrl: string) => [
  "",
  "--",
  `Sent by the treasury dashboard. To stop emails about approvals, turn them off on your Notifications page: ${baseUrl}/notifications`,
];

/** To each person who may decide it: what, how much, who asked, until when, and where to decide. */
export function approvalRequestedWords(a: Approval, ctx: WordsContext): EmailWords {
  const headline = approvalHeadline(a, ctx.nickname);
  const needed = a.approvals_needed - a.approvals.length;
  const lines = [
    `A request by ${a.requested_name} waits for four eyes, and you may decide it.`,
    "",
    `What: ${headline}.`,
    ...valueLines(a),
    `Asked by: ${a.requested_name} <${a.requested_by}> (${a.requested_role})`,
    `Asked at: ${timeWords(a.created_at)}`,
    `Expires: ${timeWords(a.expires_at)}`,
    `Approvals needed: ${needed === a.approvals_needed ? needed : `${needed} more of ${a.approvals_needed}`}`,
    "",
    "Open the request to decide it, signed in to the dashboard:",
    requestLink(a, ctx.baseUrl),
    "",
    "This email cannot approve or reject anything: the decision is made on the request's page only.",
    ...footer(ctx.baseUrl),
  ];
  return { subject: `Approval needed: ${headline}`, text: lines.join("\n") };
}

const SUBJECTS = { APPROVED: "Approved", REJECTED: "Rejected", EXPIRED: "Expired" } as const;

/**
 * To its requester: approved (by whom), rejected (by whom, why) or expired. Undefined for a
 * withdrawal (the requester's own act) or a request still waiting: nothing to tell.
 */
export function approvalDecidedWords(a: Approval, ctx: WordsContext): EmailWords | undefined {
  if (a.status !== "APPROVED" && a.status !== "REJECTED" && a.status !== "EXPIRED") return undefined;
  const headline = approvalHeadline(a, ctx.nickname);
  const by = a.decided_by ? ctx.person(a.decided_by) : "an approver";
  const when = a.decided_at ? timeWords(a.decided_at) : timeWords(a.expires_at);
  const what = [`What: ${headline}.`, ...valueLines(a), `Asked at: ${timeWords(a.created_at)}`];
  let lines: string[];
  switch (a.status) {
    case "APPROVED":
      lines = [
        `Your request was approved by ${by} at ${when}.`,
        "",
        ...what,
        "",
        a.kind === "policy"
          ? "It is applied if the policy in force is still the one it was asked against."
          : "It is sent now, after the controls check it again with today's policy and prices.",
        "What came of it is on the request's page:",
      ];
      break;
    case "REJECTED":
      lines = [
        `Your request was rejected by ${by} at ${when}.`,
        `Reason: ${a.reason ?? "none given"}`,
        "",
        ...what,
        "",
        "Nothing was sent. The request's page:",
      ];
      break;
    case "EXPIRED":
      lines = [
        `Your request expired at ${timeWords(a.expires_at)}: nobody decided it in time.`,
        "",
        ...what,
        "",
        "Nothing was sent; ask again if it is still needed. The request's page:",
      ];
      break;
  }
  return {
    subject: `${SUBJECTS[a.status]}: ${headline}`,
    text: [...lines, requestLink(a, ctx.baseUrl), ...footer(ctx.baseUrl)].join("\n"),
  };
}

/** The webhook the dispatcher turned off after it failed for days (the outbox's `webhook.disabled`). */
export interface DisabledWebhook {
  id: string;
  url: string;
  failing_since: string;
  disabled_at: string;
}

/** To every admin, whatever they chose about approvals: nothing more goes to that receiver until it is added again. */
export function webhookDisabledWords(w: DisabledWebhook): EmailWords {
  const lines = [
    "The dashboard turned a webhook off: every delivery to it failed for 3 days.",
    "",
    `Webhook: ${w.id}`,
    `URL: ${w.url}`,
    `Failing since: ${timeWords(w.failing_since)}`,
    `Turned off at: ${timeWords(w.disabled_at)}`,
    "",
    "Nothing more is sent to it. Its deliveries are listed under Settings, Webhooks (GET /api/webhooks/{id}/deliveries);",
    "once the receiver answers again, register it again (an admin).",
    "",
    "--",
    "Sent by the treasury dashboard to its admins.",
  ];
  return { subject: `Webhook turned off: ${w.url}`, text: lines.join("\n") };
}
