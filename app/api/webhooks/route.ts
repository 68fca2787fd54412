import { jsonBody, methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";
import { listWebhookViews, registerWebhook } from "@/lib/server/events/webhooks";

/** The webhooks, newest first: `{"items": [...]}` (admin). */
export const GET = withRole("webhooks:manage", async ({ runtime }) =>
  Response.json({ items: await listWebhookViews(runtime) }),
);

/**
 * A new webhook: `{"url", "events": [...] | ["*"], "description"}` → 201 `{"webhook", "secret": "whsec_…"}`,
 * the secret shown this once; 400 naming each refused field (an http:// URL, a private address).
 */
export const POST = withRole("webhooks:manage", async ({ request, user, runtime, ip }) =>
  Response.json(await registerWebhook(runtime, user, await jsonBody(request), ip), {
    status: 201,
    headers: { "Cache-Control": "no-store" },
  }),
);

const notAllowed = () => methodNotAllowed("GET", "POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
