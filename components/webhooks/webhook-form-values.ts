import type { EventType, NewWebhook } from "@/lib/shared/webhooks";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

/**
 * The new-webhook form's fields as the browser holds them (issue 30), named like the request
 * `POST /api/webhooks` takes, so each of lib/shared/webhooks.ts's errors (and the server's
 * `meta.errors`) lands on its own field: `url`, `events`, `description`. "All events" is a box of
 * its own, sent as `["*"]`.
 */
export interface WebhookValues {
  url: string;
  /** "All events": `events` is then `["*"]`, whatever else is ticked. */
  all: boolean;
  events: EventType[];
  description: string;
}

export type WebhookOutput = FormOutput<NewWebhook>;

export const emptyWebhook = (): WebhookValues => ({ url: "", all: false, events: [], description: "" });

/** The request the form would send. A checkbox group with nothing ticked may read as false: no events. */
export const toWebhookRequest = (v: WebhookValues): Record<string, unknown> => ({
  url: v.url,
  events: v.all ? ["*"] : Array.isArray(v.events) ? v.events : [],
  description: v.description,
});

/** The form checked against the schema `POST /api/webhooks` checks. */
export const webhookResolver = () =>
  specResolver<WebhookValues, NewWebhook, WebhookOutput>({
    schema: () => import("@/lib/shared/webhooks").then((m) => m.newWebhookSchema),
    toRequest: toWebhookRequest,
    formErrors: () => ({}),
    output: (request) => ({ request }),
  });
