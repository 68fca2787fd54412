import "server-only";
import { mayDecide, type Approval } from "@/lib/shared/approval";
import { can, type Role } from "@/lib/shared/roles";
import { DEMO_USERS, demoUsersEnabled } from "../auth/demo-users";
import { signedInPeople } from "../auth/sessions";
import type { Db } from "../db";
import { approvalEmailsOff } from "../db/webhooks";
import type { Runtime } from "../runtime";

/**
 * Who is emailed about an event (issue 30), from the people the dashboard knows: the demo users
 * while they exist, and everyone who ever signed in, with their role as it is now (their newest
 * sign-in's). Read in the dispatcher's fan-out transaction (`db`).
 */

export interface Person {
  email: string;
  role: Role;
  /** Known for the demo users; a sign-in keeps no name. */
  name?: string;
}

/** Everyone the dashboard knows, each once: a sign-in's role over a demo user's. */
export async function knownPeople(rt: Runtime, db: Db): Promise<Person[]> {
  const people = new Map<string, Person>();
  if (demoUsersEnabled(rt.config)) for (const u of DEMO_USERS) people.set(u.email.toLowerCase(), { ...u });
  for (const p of await signedInPeople(db)) {
    const key = p.email.toLowerCase();
    people.set(key, { ...people.get(key), email: p.email, role: p.role });
  }
  return [...people.values()];
}

/**
 * Everyone who may decide the request (lib/shared/approval.ts `mayDecide`: a role that approves,
 * never its requester), less those who turned these emails off.
 */
export async function decidersToTell(db: Db, approval: Approval, people: readonly Person[]): Promise<Person[]> {
  const deciders = people.filter((p) => mayDecide(approval, p));
  const off = await approvalEmailsOff(
    db,
    deciders.map((p) => p.email),
  );
  return deciders.filter((p) => !off.has(p.email));
}

/** The requester, unless they turned these emails off. */
export async function requesterToTell(db: Db, approval: Approval): Promise<string[]> {
  const off = await approvalEmailsOff(db, [approval.requested_by]);
  return off.has(approval.requested_by) ? [] : [approval.requested_by];
}

/** Those who look after the webhooks (admins), whatever they chose: a turned-off webhook is theirs to fix. */
export const webhookKeepers = (people: readonly Person[]): Person[] =>
  people.filter((p) => can(p.role, "webhooks:manage"));

/** "Alex Approver <approver@example.com>", or the address alone when no name is known. */
export function personWords(email: string, people: readonly Person[]): string {
  const name = people.find((p) => p.email.toLowerCase() === email.toLowerCase())?.name;
  return name ? `${name} <${email}>` : email;
}
