import "server-only";

/** A counting semaphore whose waiters give up at their deadline (with `refusal()`) or on abort. */
export function gate(capacity: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    enter(maxWaitMs: number, signal: AbortSignal | undefined, refusal: () => Error): Promise<() => void> {
      if (active < capacity) {
        active++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve, reject) => {
        const admit = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(once(release));
        };
        const leave = (error: unknown) => {
          const at = waiting.indexOf(admit);
          if (at >= 0) waiting.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        };
        const onAbort = () => leave(signal!.reason);
        const timer = setTimeout(() => leave(refusal()), Math.max(0, maxWaitMs));
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.push(admit);
      });
    },
  };
}

const once = (fn: () => void) => {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
};
