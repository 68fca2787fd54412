/**
 * A resource every project of one vitest run shares (a PostgreSQL cluster, the shared apps):
 * started by the first project's globalSetup, stopped after the last one's teardown. The
 * projects' globalSetups run in vitest's one main process, so globalThis holds it.
 */
export function onePerRun<T>(key: string, start: () => Promise<T>, stop: (value: T) => Promise<void>) {
  const slot = Symbol.for(`treasury-dashboard.test.${key}`);
  const holder = globalThis as { [k: symbol]: { users: number; value: Promise<T> } | undefined };
  return {
    /** The resource (started now if no project has asked yet), and its release for the teardown. */
    acquire(): { value: Promise<T>; release(): Promise<void> } {
      const shared = (holder[slot] ??= { users: 0, value: start() });
      shared.users++;
      return {
        value: shared.value,
        async release() {
          if (--shared.users > 0) return;
          delete holder[slot];
          const value = await shared.value.catch(() => undefined);
          if (value !== undefined) await stop(value);
        },
      };
    },
  };
}
