import { isProblem, ProblemError, type Problem } from "@/lib/spec/problem";
import { personActivity } from "./person-activity";

/** Set while the page signs out and goes to the sign-in page itself: a 401 meanwhile sends it nowhere else. */
let leaving = false;
export const leavingForSignIn = (): void => {
  leaving = true;
};

/** The person's inputs on this page; a request made after one renews the session's idle timeout. */
const activity = personActivity(typeof window === "undefined" ? undefined : window);

/** Any thrown value as a problem a person can read. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ProblemError) return error.problem;
  return {
    type: "about:blank",
    title: "Something went wrong",
    status: 0,
    detail: (error as Error)?.message ?? String(error),
  };
}

/**
 * Calls the dashboard's own API (never the service directly). Any failure becomes a
 * ProblemError whose words a person can read. The first call after the person's input says so.
 */
export async function api<T>(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    /** A body sent as it is (a file's bytes), with its Content-Type in `headers`, instead of `body` as JSON. */
    raw?: BodyInit;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? "GET",
      headers: {
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        // The person's own doing (server: personActed); a background poll without an input since is not.
        ...(activity.take() ? { "X-Dashboard-Activity": "1" } : {}),
        ...init.headers,
      },
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ProblemError({
      type: "about:blank",
      title: "Network error",
      status: 0,
      detail: "The dashboard could not be reached. Check your connection and try again.",
    });
  }
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.ok) return body as T;
  if (res.status === 401 && typeof window !== "undefined" && !leaving) {
    // The session ended: a full load of the sign-in page (not a client-side push) also
    // drops every cached query of the old session.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.href = `/signin?callbackUrl=${encodeURIComponent(window.location.pathname)}`;
  }
  throw new ProblemError(
    isProblem(body)
      ? body
      : {
          type: "about:blank",
          title: res.statusText || "Error",
          status: res.status,
          detail: `The dashboard answered ${res.status}.`,
        },
  );
}

/** Query string from defined values; arrays repeat the key. */
export function query(params: Record<string, string | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v) q.set(k, v);
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
