/**
 * What a test's migrated PostgreSQL database costs: made empty and migrated (as each test file
 * did), against copied from the run's migrated database (test/support/postgres.ts). The two take
 * turns, ROUNDS times, on one throwaway cluster, so a busy moment of the machine falls on both.
 *
 *   npm run bench:test-databases
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createDb } from "@/lib/server/db";
import { adminQuery, migratedDatabase, startPostgres, withDatabase } from "../support/postgres";

const ROUNDS = 10;

/** Milliseconds to a migrated database, made by `create`, then dropped. */
async function timed(url: string, create: (name: string) => Promise<void>): Promise<number> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const start = performance.now();
  await create(name);
  await (await createDb({ kind: "postgres", url: withDatabase(url, name) })).destroy();
  const ms = performance.now() - start;
  await adminQuery(url, `DROP DATABASE ${name} WITH (FORCE)`);
  return ms;
}

async function main() {
  const server = await startPostgres();
  try {
    const { url } = server;
    const template = await migratedDatabase(url);
    const spent = { migrated: 0, copied: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      spent.migrated += await timed(url, (name) => adminQuery(url, `CREATE DATABASE ${name}`));
      spent.copied += await timed(url, (name) => adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template}`));
    }
    const per = (ms: number) => (ms / ROUNDS).toFixed(0);
    console.log(`A migrated PostgreSQL database for a test (${ROUNDS} rounds, taking turns):`);
    console.log(`  made empty, then migrated   ${per(spent.migrated)} ms`);
    console.log(`  copied from a migrated one  ${per(spent.copied)} ms`);
    console.log(`copied costs ${(spent.copied / spent.migrated).toFixed(2)} of migrated`);
  } finally {
    await server.stop();
  }
}

void main();
