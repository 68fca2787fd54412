import { leavingForSignIn } from "./api";

/**
 * Signs out through next-auth's own endpoints (CSRF token, then POST), without shipping
 * next-auth's client library on every page. The session's end also ends the live stream at
 * once, and the polls that follow meet 401s: they must not start a second navigation.
 */
export async function signOut(callbackUrl = "/signin"): Promise<void> {
  leavingForSignIn();
  const { csrfToken } = (await (await fetch("/api/auth/csrf")).json()) as { csrfToken: string };
  await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }),
  });
  window.location.assign(callbackUrl);
}
