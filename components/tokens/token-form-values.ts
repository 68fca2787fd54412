import type { NewApiToken } from "@/lib/shared/api-tokens";
import type { TokenScope } from "@/lib/shared/token-scopes";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

/**
 * The new-token form's fields as the browser holds them (issue 28), named like the request
 * `POST /api/tokens` takes, so each of lib/shared/api-tokens.ts's errors (and the server's
 * `meta.errors`) lands on its own field: `name`, `scopes`, `expires_in_days`.
 */
export interface TokenValues {
  name: string;
  scopes: TokenScope[];
  /** Typed text: whole days from 1 to 90. */
  expires_in_days: string;
}

export type TokenOutput = FormOutput<NewApiToken>;

export const DEFAULT_DAYS = 30;

export const emptyToken = (): TokenValues => ({ name: "", scopes: ["read"], expires_in_days: String(DEFAULT_DAYS) });

/** Whole days as a number; anything else is passed on as typed, for the schema to name. */
const daysOf = (text: string): number | string => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/** The request the form would send. A checkbox group with nothing ticked may read as false: no scopes. */
export const toTokenRequest = (v: TokenValues): Record<string, unknown> => ({
  name: v.name,
  scopes: Array.isArray(v.scopes) ? v.scopes : [],
  expires_in_days: daysOf(v.expires_in_days),
});

/** The form checked against the schema `POST /api/tokens` checks. */
export const tokenResolver = () =>
  specResolver<TokenValues, NewApiToken, TokenOutput>({
    schema: () => import("@/lib/shared/api-tokens").then((m) => m.newApiTokenSchema),
    toRequest: toTokenRequest,
    formErrors: () => ({}),
    output: (request) => ({ request }),
  });
