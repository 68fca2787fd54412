import "server-only";
import type { Client } from "pg";
import { log } from "../ops/log";

/** The advisory lock's key: any fixed number the deployment's instances agree on. */
export const WATCHER_LOCK_KEY = 7_340_113;
const RETRY_MS = 1_000;
/** The leader's connection's application_name, followed by its process id. */
export const LEADER_APP_NAME = "dashboard watcher";

export interface Leadership {
  stop(): Promise<void>;
}

/**
 * One leader among the instances on one PostgreSQL: whoever holds the session-level advisory
 * lock on a connection of its own. Followers try again every second; when the leader's process
 * dies its connection closes, PostgreSQL releases the lock, and a follower takes it within about
 * a second. The leader checks its connection every second too, and steps down when it is lost
 * (another instance may already hold the lock by then).
 */
export function electLeader(url: string, roles: { lead(): void; follow(): void }, retryMs = RETRY_MS): Leadership {
  let client: Client | undefined;
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const stepDown = () => {
    if (leading) {
      leading = false;
      roles.follow();
    }
    const c = client;
    client = undefined;
    c?.end().catch(() => undefined);
  };

  const attempt = async () => {
    try {
      if (!client) {
        const { default: pg } = await import("pg");
        // Named, so an operator (or a test) can see which process leads: pg_stat_activity joined to pg_locks.
        const c = new pg.Client({ connectionString: url, application_name: `${LEADER_APP_NAME} ${process.pid}` });
        c.on("error", () => client === c && stepDown());
        await c.connect();
        client = c;
      }
      if (leading) {
        await client.query("SELECT 1");
      } else {
        const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [
          WATCHER_LOCK_KEY,
        ]);
        if (rows[0]?.ok && !stopped) {
          leading = true;
          roles.lead();
        }
      }
    } catch (error) {
      if (!stopped) log.error({ err: error }, "live: leader election failed");
      stepDown();
    }
    if (!stopped) timer = setTimeout(() => void attempt(), retryMs).unref();
  };
  void attempt();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      if (leading) {
        leading = false;
        roles.follow();
      }
      client = undefined;
      // Released at once for the next leader (closing the session would release it too, once
      // PostgreSQL notices), then the session closes.
      await c?.query("SELECT pg_advisory_unlock_all()").catch(() => undefined);
      await c?.end().catch(() => undefined);
    },
  };
}
