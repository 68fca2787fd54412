import "server-only";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { storedHeadSeq } from "../audit-trail";
import type { Db } from "../db";
import { pendingCount } from "../db/approvals";

/**
 * The dashboard's Prometheus metrics, in one registry, served by GET /api/metrics. Labels have
 * bounded values: routes are the service's path templates, never ids. The process's one set is
 * the runtime's (`runtime().metrics`).
 */

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  // Where the lockout gauge reads the lockout's end: the runtime's limiter (watchLockout), none until then.
  const lockout = { read: async (): Promise<number> => 0 };
  return {
    registry,
    /** The lockout gauge reads `read` (the lockout's end in ms since the epoch, 0 when none) at each scrape. */
    watchLockout(read: () => Promise<number>) {
      lockout.read = read;
    },
    upstreamLockedUntil: new Gauge({
      name: "dashboard_upstream_locked_until_seconds",
      help: "When the service's lockout after a 429 ends, in unix seconds (0 when none): until then the dashboard sends it nothing.",
      registers,
      async collect() {
        // Read at each scrape, so it falls back to 0 when the lockout ends and shows other instances' on PostgreSQL.
        const until = await lockout.read().catch(() => 0);
        this.set(until > 0 ? Math.ceil(until / 1000) : 0);
      },
    }),
    upstreamRequests: new Counter({
      name: "dashboard_upstream_requests_total",
      help: "Calls to the service (token endpoint included), by path template and HTTP status (0 when none came back).",
      labelNames: ["route", "status"] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: "dashboard_upstream_request_duration_seconds",
      help: "Time from sending a call to the service to its answer's headers, by path template.",
      labelNames: ["route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    upstreamThrottled: new Counter({
      name: "dashboard_upstream_429_total",
      help: "429 Too Many Requests answers received from the service, by rate class.",
      labelNames: ["class"] as const,
      registers,
    }),
    upstreamHeldBack: new Counter({
      name: "dashboard_upstream_held_back_total",
      help: "Calls not sent because the rate budget had no slot within their time limit, by rate class.",
      labelNames: ["class"] as const,
      registers,
    }),
    budgetWait: new Histogram({
      name: "dashboard_upstream_budget_wait_seconds",
      help: "Time a call waited for its slot in the rate budget, by rate class.",
      labelNames: ["class"] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    }),
    tokenRequests: new Counter({
      name: "dashboard_upstream_token_requests_total",
      help: "Requests to the service's token endpoint, by HTTP status (0 when none came back).",
      labelNames: ["status"] as const,
      registers,
    }),
    eventStreams: new Gauge({
      name: "dashboard_event_streams_open",
      help: "Open GET /api/events streams in this process.",
      registers,
    }),
    journalPending: new Gauge({
      name: "dashboard_journal_entries_pending",
      help: "Journal entries sent (or being sent) whose outcome is not known yet.",
      registers,
    }),
    approvalsPending: new Gauge({
      name: "dashboard_approvals_pending",
      help: "Requests waiting for approval.",
      registers,
    }),
    auditHead: new Gauge({
      name: "dashboard_audit_head_seq",
      help: "The newest audit entry's sequence number as stored now; a monitor alerts when it ever goes down.",
      registers,
    }),
    passwordChecks: new Counter({
      name: "dashboard_sign_in_password_checks_total",
      help: "Sign-in passwords checked against the hash (attempts refused by the lockout are not).",
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The exposition text, with the database's gauges read now. */
export async function scrape(db: Db, m: Metrics): Promise<{ contentType: string; text: string }> {
  const [journal, approvals, auditHead] = await Promise.all([
    db
      .selectFrom("journal")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirst(),
    pendingCount(db),
    storedHeadSeq(db),
  ]);
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  m.journalPending.set(Number(journal?.n ?? 0));
  m.approvalsPending.set(approvals);
  m.auditHead.set(auditHead);
  return { contentType: m.registry.contentType, text: await m.registry.metrics() };
}
