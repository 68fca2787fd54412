/**
 * Where a sign-in may send the browser afterwards: a path of the dashboard itself. A browser
 * reads "/\evil.example" (and "//evil.example", or a tab or newline inside either) as another
 * host, so anything but a plain path resolving to our own origin is replaced by "/".
 */
export function sameOriginPath(value: string | undefined | null): string {
  if (!value || !value.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(value)) return "/";
  const probe = "http://dashboard.invalid";
  try {
    const url = new URL(value, probe);
    return url.origin === probe ? `${url.pathname}${url.search}${url.hash}` : "/";
  } catch {
    return "/";
  }
}

/** next-auth's redirect callback: a same-origin path or URL stays; anything else goes home. */
export function signInRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  let path = url;
  if (!url.startsWith("/")) {
    try {
      const absolute = new URL(url);
      if (absolute.origin !== new URL(baseUrl).origin) return baseUrl;
      path = `${absolute.pathname}${absolute.search}${absolute.hash}`;
    } catch {
      return baseUrl;
    }
  }
  return `${baseUrl.replace(/\/$/, "")}${sameOriginPath(path)}`;
}

/**
 * Why an OIDC identity is refused, or null: the email is who the person is, so the provider
 * must give it and say it verified it. A provider silent about `email_verified` is refused too.
 */
export function oidcEmailRefusal(profile: Record<string, unknown> | undefined): string | null {
  const email = profile?.email;
  if (typeof email !== "string" || !email.includes("@")) return "the ID token has no email";
  const verified = profile?.email_verified;
  if (verified !== true && verified !== "true") return "the ID token's email is not verified";
  return null;
}
