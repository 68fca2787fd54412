import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Approval } from "@/lib/shared/approval";
import { recordEvent } from "@/lib/server/db/outbox";
import { insertEmails } from "@/lib/server/db/webhooks";
import { EVENTS_SWEEP_MS, eventsIdle } from "@/lib/server/events/dispatcher";
import { emailsOfEvent } from "@/lib/server/events/mail";
import { EMAIL_RETRY_DELAYS_MS, sendDueEmails } from "@/lib/server/events/mail-sender";
import {
  eventually,
  expectProblem,
  inProcessDashboard,
  newRef,
  smallTransfer,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";
import { smtpReceiver, type Mail, type SmtpReceiver } from "../support/smtp-receiver";

/**
 * Email (issue 30) through the route handlers in process, with a local SMTP server: a request held
 * for four eyes is emailed to everyone who may decide it and never to its requester, in words that
 * say what, how much, who asked, until when and where (never a link that decides); a decision is
 * emailed to the requester; a person who turned these emails off gets none; a send that fails is
 * tried again, and a crash between the fan-out and the send neither loses nor repeats one. The
 * outbox's approval events are written here from the request's own view (GET /api/approvals/{id}),
 * as the approvals' transactions write them, unless they already did. The clock is moved, never
 * waited for.
 */

const NOTIFICATIONS = "/api/notifications";
const MAIL_FROM = "Treasury <treasury@example.com>";

async function startAll(database: Database) {
  const smtp = await smtpReceiver();
  const d = await inProcessDashboard({
    database,
    env: { SMTP_URL: smtp.url, MAIL_FROM, LOG_LEVEL: "error" },
  });
  return { smtp, d };
}

/** What a test needs of a running dashboard and its mail server. */
function harness(get: () => { d: InProcessDashboard; smtp: SmtpReceiver }) {
  const rt = () => get().d.app.runtime;

  /** Moves the clock by `ms` and lets the dispatcher's pass run to its end. */
  async function move(ms = EVENTS_SWEEP_MS) {
    get().d.app.clock.advance(ms);
    await eventsIdle(rt());
  }

  /** A 15,000 USD internal transfer from Treasury to Settlement by `who`: held for four eyes. */
  async function heldTransfer(who: "ops" | "admin" = "ops"): Promise<Approval> {
    const { d } = get();
    const held = await d.as[who].call(
      "POST",
      "/api/v2/transfer/internal",
      smallTransfer(newRef("mail"), { amount: "15000" }),
    );
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    return view(held.body.approval.id);
  }

  async function view(id: string): Promise<Approval> {
    const res = await get().d.as.viewer.call("GET", `/api/approvals/${id}`);
    expect(res.status).toBe(200);
    return res.body.approval as Approval;
  }

  /** The approvals write their event in the change's own transaction: it is there, once. */
  async function approvalEvent(type: "approval.requested" | "approval.decided", approval: Approval) {
    const written = await rt()
      .db.selectFrom("outbox_events")
      .select("id")
      .where("type", "=", type)
      .where("data_json", "like", `%"id":"${approval.id}"%`)
      .execute();
    expect(written, `${type} of ${approval.id}`).toHaveLength(1);
  }

  /** The messages received for this request (its link names it; to `to` alone when given), once `count` of them arrived. */
  const mailsAbout = (approvalId: string, count: number, to?: string) =>
    eventually(
      async () => {
        const found = get().smtp.received.filter(
          (m) => m.text.includes(approvalId) && (to === undefined || m.to.includes(to)),
        );
        return found.length >= count ? found : (await move(), undefined);
      },
      10_000,
      `${count} emails about ${approvalId}`,
    );

  const recipients = (mails: Mail[]) => mails.flatMap((m) => m.to).sort();

  /** The email rows of the request's event of `type`. */
  const rowsOf = (approvalId: string, type = "approval.requested") =>
    rt()
      .db.selectFrom("emails")
      .innerJoin("outbox_events", "outbox_events.id", "emails.event_id")
      .selectAll("emails")
      .where("outbox_events.type", "=", type)
      .where("outbox_events.data_json", "like", `%"id":"${approvalId}"%`)
      .orderBy("emails.to_email")
      .execute();

  return { rt, move, heldTransfer, view, approvalEvent, mailsAbout, recipients, rowsOf };
}

/** A few passes more: what was to arrive has, and nothing else will. */
async function settle(move: (ms?: number) => Promise<void>) {
  for (let i = 0; i < 3; i++) await move();
}

describe("emails on sqlite", () => {
  let d: InProcessDashboard;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    ({ d, smtp } = await startAll("sqlite"));
  });
  afterAll(async () => {
    await d?.dispose();
    await smtp?.close();
  });
  beforeEach(async () => {
    await smtp.start();
    smtp.received.length = 0;
  });
  const h = harness(() => ({ d, smtp }));

  it("emails a held transfer to the approver and the admin, never its requester, with what, how much, who, until when and where", async () => {
    const approval = await h.heldTransfer("ops");
    await h.approvalEvent("approval.requested", approval);
    const mails = await h.mailsAbout(approval.id, 2);
    await settle(h.move);
    expect(h.recipients(smtp.received.filter((m) => m.text.includes(approval.id)))).toEqual([
      "admin@example.com",
      "approver@example.com",
    ]);
    const mail = mails.find((m) => m.to[0] === "approver@example.com")!;
    expect(mail.from).toBe(MAIL_FROM);
    expect(mail.subject).toBe("Approval needed: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(mail.text).toContain("Value: 15,000.00 USD");
    expect(mail.text).toContain("Asked by: Oakley Ops <ops@example.com> (ops)");
    expect(mail.text).toContain(`Expires: `);
    expect(mail.text).toContain(approval.expires_at);
    expect(mail.text).toMatch(/Expires: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(/);
    expect(mail.text).toContain(`http://127.0.0.1:3999/approvals#approval-${approval.id}`);
    // Pages only (the request's, one's notifications): no link that approves, rejects, or calls the API.
    const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
    expect(links).toEqual([
      `http://127.0.0.1:3999/approvals#approval-${approval.id}`,
      "http://127.0.0.1:3999/notifications",
    ]);
    expect(mail.text).not.toMatch(/\/approve|\/reject|\/api\//);
    const rows = await h.rowsOf(approval.id);
    expect(rows.map((r) => [r.to_email, r.status, Number(r.attempts)])).toEqual([
      ["admin@example.com", "SENT", 1],
      ["approver@example.com", "SENT", 1],
    ]);
    expect(mail.messageId).toBe(`<${rows.find((r) => r.to_email === "approver@example.com")!.id}@treasury-dashboard>`);
  });

  it("never emails the requester, even one whose role approves: an admin's request goes to the approver alone", async () => {
    const approval = await h.heldTransfer("admin");
    await h.approvalEvent("approval.requested", approval);
    await h.mailsAbout(approval.id, 1);
    await settle(h.move);
    expect(h.recipients(smtp.received.filter((m) => m.text.includes(approval.id)))).toEqual(["approver@example.com"]);
  });

  it("emails a decision to the requester only: rejected with its reason, approved; a withdrawal tells nobody", async () => {
    const rejected = await h.heldTransfer("ops");
    const no = await d.as.approver.call("POST", `/api/approvals/${rejected.id}/reject`, { reason: "not this week" });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    await h.approvalEvent("approval.decided", await h.view(rejected.id));
    const [rejection] = await h.mailsAbout(rejected.id, 1, "ops@example.com");
    expect(rejection!.to).toEqual(["ops@example.com"]);
    expect(rejection!.subject).toBe("Rejected: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(rejection!.text).toContain("Your request was rejected by Alex Approver <approver@example.com> at ");
    expect(rejection!.text).toContain("Reason: not this week");

    const approved = await h.heldTransfer("ops");
    const yes = await d.as.admin.call("POST", `/api/approvals/${approved.id}/approve`);
    expect(yes.status, JSON.stringify(yes.body)).toBe(200);
    await h.approvalEvent("approval.decided", await h.view(approved.id));
    const [approval] = await h.mailsAbout(approved.id, 1, "ops@example.com");
    expect(approval!.to).toEqual(["ops@example.com"]);
    expect(approval!.subject).toBe("Approved: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(approval!.text).toContain("Your request was approved by Avery Admin <admin@example.com> at ");

    const withdrawn = await h.heldTransfer("ops");
    expect((await d.as.ops.call("POST", `/api/approvals/${withdrawn.id}/withdraw`)).status).toBe(200);
    await h.approvalEvent("approval.decided", await h.view(withdrawn.id));
    await settle(h.move);
    expect(await h.rowsOf(withdrawn.id, "approval.decided")).toEqual([]);
    // The decisions went to the requester alone, once each.
    for (const id of [rejected.id, approved.id, withdrawn.id]) {
      expect((await h.rowsOf(id, "approval.decided")).map((r) => r.to_email)).toEqual(
        id === withdrawn.id ? [] : ["ops@example.com"],
      );
    }
    const toOps = smtp.received.filter((m) => m.to.includes("ops@example.com"));
    expect(toOps.map((m) => m.subject.split(":")[0]).sort()).toEqual(["Approved", "Rejected"]);
  });

  it("lets each person turn these emails off, their own only: none arrive for them, audited", async () => {
    expect((await d.as.approver.call("GET", NOTIFICATIONS)).body).toEqual({ approval_emails: true });
    const off = await d.as.approver.call("PUT", NOTIFICATIONS, { approval_emails: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toEqual({ approval_emails: false });
    expect((await d.as.approver.call("GET", NOTIFICATIONS)).body).toEqual({ approval_emails: false });
    // One's own only: a viewer's choice is the viewer's, and no body names another person.
    expect((await d.as.viewer.call("PUT", NOTIFICATIONS, { approval_emails: false })).body).toEqual({
      approval_emails: false,
    });
    const other = await d.as.viewer.call("PUT", NOTIFICATIONS, {
      approval_emails: true,
      email: "approver@example.com",
    });
    expectProblem(other, 400);
    expect((await d.as.admin.call("GET", NOTIFICATIONS)).body).toEqual({ approval_emails: true });
    try {
      const approval = await h.heldTransfer("ops");
      await h.approvalEvent("approval.requested", approval);
      await h.mailsAbout(approval.id, 1);
      await settle(h.move);
      expect(h.recipients(smtp.received.filter((m) => m.text.includes(approval.id)))).toEqual(["admin@example.com"]);

      // The requester who turned them off hears nothing of the decision either.
      expect((await d.as.ops.call("PUT", NOTIFICATIONS, { approval_emails: false })).status).toBe(200);
      expect((await d.as.admin.call("POST", `/api/approvals/${approval.id}/reject`, { reason: "no" })).status).toBe(
        200,
      );
      await h.approvalEvent("approval.decided", await h.view(approval.id));
      await settle(h.move);
      expect(smtp.received.filter((m) => m.to.includes("ops@example.com"))).toEqual([]);

      const audit = await d.as.admin.call("GET", "/api/audit?event=notifications.changed");
      expect(audit.body.items.map((e: any) => [e.actor_email, e.detail.approval_emails])).toEqual(
        expect.arrayContaining([
          ["approver@example.com", false],
          ["viewer@example.com", false],
          ["ops@example.com", false],
        ]),
      );
    } finally {
      for (const who of ["approver", "viewer", "ops"] as const) {
        expect((await d.as[who].call("PUT", NOTIFICATIONS, { approval_emails: true })).status).toBe(200);
      }
    }
  });

  it.each([
    [{}, "approval_emails", "is required"],
    [{ approval_emails: "no" }, "approval_emails", "true or false"],
    [{ approval_emails: null }, "approval_emails", "true or false"],
  ])("refuses %j, naming the field", async (body, field, words) => {
    const res = await d.as.trader.call("PUT", NOTIFICATIONS, body);
    expectProblem(res, 400);
    const error = res.body.meta.errors.find((e: any) => e.field === field);
    expect(error?.message, JSON.stringify(res.body)).toContain(words);
    expect((await d.as.trader.call("GET", NOTIFICATIONS)).body).toEqual({ approval_emails: true });
  });

  it("emails every admin when a webhook is turned off, whatever they chose", async () => {
    expect((await d.as.admin.call("PUT", NOTIFICATIONS, { approval_emails: false })).status).toBe(200);
    try {
      const at = new Date(d.app.clock.now());
      const webhook = {
        id: `wh_${newRef("mail")}`,
        url: "https://ledger.example.com/hooks",
        failing_since: new Date(at.getTime() - 3 * 86_400_000).toISOString(),
        disabled_at: at.toISOString(),
      };
      await recordEvent(h.rt().db, { type: "webhook.disabled", at, data: { webhook } });
      const [mail] = await eventually(async () => {
        const found = smtp.received.filter((m) => m.text.includes(webhook.id));
        return found.length > 0 ? found : (await h.move(), undefined);
      });
      await settle(h.move);
      expect(smtp.received.filter((m) => m.text.includes(webhook.id)).flatMap((m) => m.to)).toEqual([
        "admin@example.com",
      ]);
      expect(mail!.subject).toBe("Webhook turned off: https://ledger.example.com/hooks");
    } finally {
      expect((await d.as.admin.call("PUT", NOTIFICATIONS, { approval_emails: true })).status).toBe(200);
    }
  });

  it("tries a failed send again after a minute, with the same Message-ID, and sends it once the server is back", async () => {
    await smtp.stop();
    const approval = await h.heldTransfer("ops");
    await h.approvalEvent("approval.requested", approval);
    const failed = await eventually(async () => {
      const rows = await h.rowsOf(approval.id);
      return rows.length === 2 && rows.every((r) => Number(r.attempts) === 1) ? rows : (await h.move(), undefined);
    });
    for (const row of failed) {
      expect(row).toMatchObject({ status: "PENDING", sent_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(Date.parse(row.next_attempt_at!) - d.app.clock.now()).toBeGreaterThan(0);
      expect(Date.parse(row.next_attempt_at!) - d.app.clock.now()).toBeLessThanOrEqual(EMAIL_RETRY_DELAYS_MS[0]!);
    }
    expect(smtp.received).toEqual([]);

    await smtp.start();
    await h.move(EMAIL_RETRY_DELAYS_MS[0]);
    const mails = await h.mailsAbout(approval.id, 2);
    const rows = await h.rowsOf(approval.id);
    expect(rows.map((r) => [r.status, Number(r.attempts), r.last_error])).toEqual([
      ["SENT", 2, null],
      ["SENT", 2, null],
    ]);
    expect(mails.map((m) => m.messageId).sort()).toEqual(rows.map((r) => `<${r.id}@treasury-dashboard>`).sort());
  });

  it("neither loses nor repeats an email across a crash between the fan-out and the send", async () => {
    await smtp.stop();
    const approval = await h.heldTransfer("ops");
    await h.approvalEvent("approval.requested", approval);
    // The fan-out is written (the email rows, with the event's mark); the sends did not happen.
    await eventually(async () => ((await h.rowsOf(approval.id)).length === 2 ? true : (await h.move(), undefined)));
    for (let i = 0; i < 3; i++) await h.move();
    expect((await h.rowsOf(approval.id)).map((r) => r.to_email)).toEqual(["admin@example.com", "approver@example.com"]);
    // A fan-out made again (a new leader that believed the event new) cannot add a second email per person.
    const event = await h
      .rt()
      .db.selectFrom("outbox_events")
      .selectAll()
      .where("type", "=", "approval.requested")
      .where("data_json", "like", `%"id":"${approval.id}"%`)
      .executeTakeFirstOrThrow();
    await expect(
      h
        .rt()
        .db.transaction()
        .execute(async (tx) => insertEmails(tx, await emailsOfEvent(h.rt(), tx, event, new Date(d.app.clock.now())))),
    ).rejects.toThrow(/unique|UNIQUE/);

    // "Restarted": the server is back, and two senders (the dispatcher's pass and another) find the same emails due.
    await smtp.start();
    d.app.clock.advance(EMAIL_RETRY_DELAYS_MS[0]!);
    await Promise.all([sendDueEmails(h.rt()), sendDueEmails(h.rt()), eventsIdle(h.rt())]);
    await h.mailsAbout(approval.id, 2);
    await settle(h.move);
    await h.move(EMAIL_RETRY_DELAYS_MS[1]);
    const mails = smtp.received.filter((m) => m.text.includes(approval.id));
    expect(h.recipients(mails)).toEqual(["admin@example.com", "approver@example.com"]);
    expect((await h.rowsOf(approval.id)).map((r) => r.status)).toEqual(["SENT", "SENT"]);
  });

  it("tells nobody without SMTP_URL: no email, no error", async () => {
    const approval = await h.heldTransfer("ops");
    const event = {
      id: "evt_no_smtp",
      type: "approval.requested",
      at: new Date(d.app.clock.now()).toISOString(),
      data_json: JSON.stringify({ approval }),
      fanned_at: null,
    };
    const rt = h.rt();
    const unset = { ...rt, config: { ...rt.config, SMTP_URL: undefined } };
    expect(await emailsOfEvent(unset, rt.db, event, new Date())).toEqual([]);
    expect(await emailsOfEvent(rt, rt.db, event, new Date())).toHaveLength(2);
    // An event whose data is not its type's tells nobody, and stops nothing.
    expect(await emailsOfEvent(rt, rt.db, { ...event, data_json: '{"approval":{"id":1}}' }, new Date())).toEqual([]);
    const odd = { ...approval, kind: "order", request: { market: "NOPE" } };
    expect(
      await emailsOfEvent(rt, rt.db, { ...event, data_json: JSON.stringify({ approval: odd }) }, new Date()),
    ).toEqual([]);
  });

  // Last: it moves the clock by hours, past the sessions' idle time.
  it("gives up after the last wait: FAILED, its last error kept", async () => {
    await smtp.stop();
    const approval = await h.heldTransfer("ops");
    await h.approvalEvent("approval.requested", approval);
    for (const [i, wait] of EMAIL_RETRY_DELAYS_MS.entries()) {
      await eventually(async () => {
        const rows = await h.rowsOf(approval.id);
        return rows.length === 2 && rows.every((r) => Number(r.attempts) === i + 1)
          ? true
          : (await h.move(0), undefined);
      });
      await h.move(wait);
    }
    const rows = await eventually(async () => {
      const found = await h.rowsOf(approval.id);
      return found.every((r) => r.status === "FAILED") ? found : (await h.move(), undefined);
    });
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: EMAIL_RETRY_DELAYS_MS.length + 1, next_attempt_at: null, sent_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    }
    await smtp.start();
    await settle(h.move);
    // Those given up are never sent; only what came since (the request expired meanwhile: its requester is told).
    expect(smtp.received.filter((m) => m.subject.startsWith("Approval needed"))).toEqual([]);
  });
});

describe("emails on postgres", () => {
  let d: InProcessDashboard;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    ({ d, smtp } = await startAll("postgres"));
  });
  afterAll(async () => {
    await d?.dispose();
    await smtp?.close();
  });
  const h = harness(() => ({ d, smtp }));

  it("emails a held transfer to those who may decide it, and its rejection to its requester", async () => {
    const approval = await h.heldTransfer("ops");
    await h.approvalEvent("approval.requested", approval);
    await h.mailsAbout(approval.id, 2);
    expect((await d.as.approver.call("POST", `/api/approvals/${approval.id}/reject`, { reason: "no" })).status).toBe(
      200,
    );
    await h.approvalEvent("approval.decided", await h.view(approval.id));
    await h.mailsAbout(approval.id, 3);
    await settle(h.move);
    const mails = smtp.received.filter((m) => m.text.includes(approval.id));
    expect(mails.map((m) => [m.to[0], m.subject.split(":")[0]]).sort()).toEqual([
      ["admin@example.com", "Approval needed"],
      ["approver@example.com", "Approval needed"],
      ["ops@example.com", "Rejected"],
    ]);
  });
});
