import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { createApiToken, listApiTokensOf } from "@/lib/server/auth/api-tokens";

/** One's own personal API tokens, newest first (an admin: everyone's, with `owner_email`): `{"items": [...]}`. */
export const GET = withRole("tokens", async ({ user, runtime }) =>
  Response.json({ items: await listApiTokensOf(runtime, user) }),
);

/**
 * A new token, by a person signed in: `{"name", "scopes", "expires_in_days"}` → 201
 * `{"token", "secret": "dsk_…"}`, the secret shown this once; 400 naming each refused field.
 */
export const POST = withRole("tokens", async ({ request, user, runtime, ip }) =>
  Response.json(await createApiToken(runtime, user, await jsonBody(request), ip), {
    status: 201,
    headers: { "Cache-Control": "no-store" },
  }),
);

const notAllowed = () => methodNotAllowed("GET", "POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
