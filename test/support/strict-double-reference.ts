/**
 * The strict double's reading of the service's published reference (its OpenAPI excerpt and the
 * facts its README gathers): per operation, the query parameters it documents and their values,
 * the filters it lets combine, the largest page, the scope, the rate class and the body fields of
 * a create. Written from that reading alone, never from our sandbox's code: the double checks the
 * dashboard against the service, not against ourselves.
 *
 * What a request breaks is answered as a refusal `{status, reason, detail}`; `reason` is one of a
 * few fixed words so that a run's refusals can be counted by kind.
 */

export type RefusalReason =
  | "undocumented endpoint"
  | "undocumented query parameter"
  | "invalid query value"
  | "filter combination"
  | "limit above maximum"
  | "unknown body field"
  | "invalid body"
  | "unlisted market"
  | "missing scope"
  | "bad token"
  | "invalid token request"
  | "invalid scope"
  | "rate limit"
  | "locked out";

export interface Refusal {
  status: number;
  reason: RefusalReason;
  detail: string;
}

/** Rate classes as published: token 1/s, internal transfers 20/s, order book and recent executions 10/s, the rest 50/s. */
export type RateClass = "token" | "transfer" | "order-book" | "api";
export const PUBLISHED_RATES: Record<RateClass, number> = { token: 1, transfer: 20, "order-book": 10, api: 50 };

/** The scopes the reference's OAuth2 scheme lists (the ones a token may ask for). */
export const DOCUMENTED_SCOPES = new Set([
  "conversion:read_conversion_stablecoin",
  "conversion:write_conversion_stablecoin",
  "exchange:historical_prices",
  "exchange:read_order",
  "exchange:read_quote",
  "exchange:read_quote_execution",
  "exchange:write_quote_execution",
  "exchange:write_order",
  "fee:write_crypto_withdrawal_fee",
  "funding:read_profile",
  "funding:write_profile",
  "identity:read_account",
  "identity:read_identity",
  "identity:write_account",
  "identity:write_identity",
  "settlement:read_transaction",
  "settlement:write_transaction",
  "tax:read_tax_form",
  "tax:read_tax_lot",
  "tax:write_tax_lot",
  "transfer:read_deposit_address",
  "transfer:read_fiat_account",
  "transfer:read_fiat_deposit_instructions",
  "transfer:read_transfer",
  "transfer:read_transfer_limit",
  "transfer:reject_crypto_deposit",
  "transfer:update_crypto_deposit",
  "transfer:write_crypto_withdrawal",
  "transfer:write_deposit_address",
  "transfer:write_fiat_account",
  "transfer:write_fiat_deposit_instructions",
  "transfer:write_internal_transfer",
  "transfer:write_sandbox_fiat_deposit",
  "transfer:write_fiat_withdrawal",
  "events:read_event",
]);

/** The trading pairs of Create Order and List Orders (the reference's Market enum). */
export const ORDER_MARKETS: readonly string[] = [
  "ETHEUR",
  "ETHSGD",
  "ETHUSD",
  "BTCEUR",
  "BTCSGD",
  "BTCUSD",
  "PAXGUSD",
  "BCHUSD",
  "LTCUSD",
  "USDPUSD",
  "LINKUSD",
  "MATICUSD",
  "AAVEUSD",
  "UNIUSD",
];

/** The markets of the order book and ticker paths (a longer enum than the order's). */
export const MARKET_DATA_MARKETS: readonly string[] = [
  ...ORDER_MARKETS,
  ...["ETHBRL", "BTCBRL", "LTCBRL", "BCHBRL", "USDPGBP", "USDPBRL"],
  ...["AAVEMXN", "BCHMXN", "BTCMXN", "ETHMXN", "LTCMXN", "USDPMXN"],
  ...["AAVEEUR", "BCHEUR", "LTCEUR", "LINKEUR", "MATICEUR", "PAXGEUR", "SOLEUR", "USDPEUR", "UNIEUR", "PYUSDEUR"],
];

const ORDER_STATUSES = ["PENDING_SUBMISSION", "SUBMITTED", "OPEN", "FILLED", "CANCELLED", "REJECTED"];
const ORDER_SIDES = ["BUY", "SELL"];
const ORDER_TYPES = ["LIMIT", "MARKET", "POST_ONLY_LIMIT", "STOP_MARKET", "STOP_LIMIT"];
const TIMES_IN_FORCE = ["GTC", "FOK", "IOC", "GTT"];
const TRANSFER_STATUSES = ["PENDING", "COMPLETED", "FAILED"];
const TRANSFER_TYPES = [
  ...["INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT", "CRYPTO_DEPOSIT", "CRYPTO_WITHDRAWAL"],
  ...["WIRE_DEPOSIT", "WIRE_WITHDRAWAL", "SEN_DEPOSIT", "SEN_WITHDRAWAL", "BANK_DEPOSIT", "BANK_WITHDRAWAL"],
  ...["PAXOS_TRANSFER_DEBIT", "PAXOS_TRANSFER_CREDIT", "SIGNET_DEPOSIT", "SIGNET_WITHDRAWAL"],
  ...["CBIT_WITHDRAWAL", "CBIT_DEPOSIT", "CUBIX_DEPOSIT", "CUBIX_WITHDRAWAL"],
];
const SECONDARY_STATUSES = [
  "TRAVEL_RULE_INFO_REQUESTED",
  "TRAVEL_RULE_REJECTED",
  "CUSTOMER_REJECTED",
  "PENDING_CUSTOMER_APPROVAL",
];

/** A documented query parameter: what its values may be. A scalar given twice is refused. */
type Param =
  | { kind: "text" }
  | { kind: "time" }
  | { kind: "boolean" }
  | { kind: "limit"; max: number }
  | { kind: "enum"; values: readonly string[] }
  /** Repeated (`type=A&type=B`); at most `max` values ("Limit 100"). */
  | { kind: "list"; values?: readonly string[]; max?: number };

const TEXT: Param = { kind: "text" };
const TIME: Param = { kind: "time" };
const limit = (max: number): Param => ({ kind: "limit", max });
const oneOf = (values: readonly string[]): Param => ({ kind: "enum", values });
const list = (values?: readonly string[], max?: number): Param => ({ kind: "list", values, max });

const timeRange = (prefix: string): Record<string, Param> =>
  Object.fromEntries(["lt", "lte", "eq", "gte", "gt"].map((op) => [`${prefix}.${op}`, TIME]));

/** A query as parsed: every value of every parameter, in order. */
export type Query = Map<string, string[]>;

/** A body field of a create: its kind; `pattern` for amounts ("^[0-9]*\.?[0-9]+$"). */
type Field =
  | { kind: "text"; maxLength?: number }
  | { kind: "amount" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "integer"; max: number }
  | { kind: "digits" }
  | { kind: "metadata" };

const AMOUNT: Field = { kind: "amount" };
const FIELD_TEXT: Field = { kind: "text" };
const METADATA: Field = { kind: "metadata" };

interface BodyRules {
  fields: Record<string, Field>;
  required: readonly string[];
  /** A rule between fields (an order's quantities by type); the refusal's detail, or undefined. */
  across?: (body: Record<string, unknown>) => string | undefined;
}

export interface Operation {
  /** The reference's name for it: "List Orders", "Create Internal Transfer". */
  name: string;
  method: string;
  /** Below `/v2`. */
  path: RegExp;
  /** Absent: public market data. */
  scope?: string;
  rate: RateClass;
  query?: Record<string, Param>;
  /** A filter combination the reference refuses; the refusal's detail, or undefined. */
  combination?: (query: Query) => string | undefined;
  /** A market in the path must be one of these. */
  pathMarkets?: readonly string[];
  body?: BodyRules;
  /** An answer listing records: its page limit when none is asked (to tell the last page). */
  list?: { defaultLimit?: number; orders?: true };
}

const ID = "[^/]+";
const path = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, ID)}$`);

/**
 * List Transfers: profile_ids, identity_ids, ref_ids, account_ids, ids and type each "can be combined
 * with created_at.* or updated_at.* filtering options only" (paging and ordering are not filters);
 * and `order_by` must name the kind of timestamp filtered on.
 */
function transferCombination(query: Query): string | undefined {
  const names = [...query.keys()];
  const only = ["profile_ids", "identity_ids", "ref_ids", "account_ids", "ids", "type"];
  const beside = (n: string) => /^(created_at|updated_at)\.(lt|lte|eq|gte|gt)$/.test(n) || PAGING.has(n);
  for (const name of names.filter((n) => only.includes(n))) {
    const other = names.find((n) => n !== name && !beside(n));
    if (other) return `${name} can be combined with created_at.* or updated_at.* filtering options only, not ${other}`;
  }
  const orderBy = query.get("order_by")?.[0];
  const stamp = names.find((n) => /^(created_at|updated_at)\./.test(n))?.split(".")[0];
  if (orderBy && stamp && orderBy !== stamp.toUpperCase())
    return `order_by ${orderBy} with a ${stamp}.* filter: order_by must equal the timestamp filter type`;
  if (names.some((n) => n.startsWith("created_at.")) && names.some((n) => n.startsWith("updated_at.")))
    return "created_at.* and updated_at.* filters together: order_by can equal only one of them";
  return undefined;
}
const PAGING = new Set(["limit", "page_cursor", "order", "order_by"]);

/** "Filtering options are account_id, profile_id or neither." */
const accountOrProfile = (query: Query) =>
  query.has("account_id") && query.has("profile_id") ? "account_id and profile_id together" : undefined;

/** Order fields by type (the reference's Create Order description and the README's digest of it). */
function orderQuantities(b: Record<string, unknown>): string | undefined {
  const has = (f: string) => b[f] !== undefined;
  const need = (...fields: string[]) => fields.filter((f) => !has(f));
  const refuse = (...fields: string[]) => fields.filter(has);
  if (has("identity_id") !== has("identity_account_id"))
    return "identity_id and identity_account_id must be sent together";
  const type = b.type;
  const rule = (needed: string[], refused: string[]) => {
    const missing = need(...needed);
    if (missing.length) return `a ${b.side} ${type} order needs ${missing.join(", ")}`;
    const extra = refuse(...refused);
    if (extra.length) return `a ${b.side} ${type} order takes no ${extra.join(", ")}`;
    return undefined;
  };
  if (type === "LIMIT" || type === "POST_ONLY_LIMIT") return rule(["price", "base_amount"], ["quote_amount"]);
  if (type === "MARKET")
    return b.side === "BUY"
      ? rule(["quote_amount"], ["base_amount", "price", "stop_price"])
      : rule(["base_amount"], ["quote_amount", "price", "stop_price"]);
  if (type === "STOP_MARKET" || type === "STOP_LIMIT") {
    if (b.side !== "SELL") return `${type} orders are sell stop-loss orders: side must be SELL`;
    return type === "STOP_LIMIT"
      ? rule(["stop_price", "base_amount", "price"], ["quote_amount"])
      : rule(["stop_price", "base_amount"], ["quote_amount", "price"]);
  }
  return undefined;
}

const orderFilters: Record<string, Param> = {
  market: oneOf(ORDER_MARKETS),
  status: oneOf(ORDER_STATUSES),
  "order_time.begin": TIME,
  "order_time.end": TIME,
  ref_ids: list(),
  page_cursor: TEXT,
  limit: limit(1000),
};

const executionFilters: Record<string, Param> = {
  order_id: TEXT,
  since_execution_id: TEXT,
  "range.begin": TIME,
  "range.end": TIME,
  page_cursor: TEXT,
};

export const OPERATIONS: readonly Operation[] = [
  {
    name: "List Profiles",
    method: "GET",
    path: path("/profiles"),
    scope: "funding:read_profile",
    rate: "api",
    query: {
      ...timeRange("created_at"),
      limit: limit(1000),
      order: oneOf(["DESC", "ASC"]),
      order_by: oneOf(["CREATED_AT"]),
      page_cursor: TEXT,
      nickname: TEXT,
      ids: list(undefined, 100),
    },
    list: { defaultLimit: 1000 },
  },
  {
    name: "Get Profile",
    method: "GET",
    path: path("/profiles/{profile_id}"),
    scope: "funding:read_profile",
    rate: "api",
    query: { include_deactivated: { kind: "boolean" } },
  },
  {
    name: "List Profile Balances",
    method: "GET",
    path: path("/profiles/{profile_id}/balances"),
    scope: "funding:read_profile",
    rate: "api",
    query: { assets: list() },
  },
  {
    name: "Get Profile Balance",
    method: "GET",
    path: path("/profiles/{profile_id}/balances/{asset}"),
    scope: "funding:read_profile",
    rate: "api",
  },
  { name: "List Markets", method: "GET", path: path("/markets"), rate: "api" },
  {
    name: "Get Order Book",
    method: "GET",
    path: path("/markets/{market}/order-book"),
    rate: "order-book",
    pathMarkets: MARKET_DATA_MARKETS,
  },
  {
    name: "Get Ticker",
    method: "GET",
    path: path("/markets/{market}/ticker"),
    rate: "api",
    pathMarkets: MARKET_DATA_MARKETS,
  },
  // Not in the OpenAPI excerpt; the README names it and its rate class ("count with the order book").
  {
    name: "List Recent Executions",
    method: "GET",
    path: path("/markets/{market}/recent-executions"),
    rate: "order-book",
    pathMarkets: MARKET_DATA_MARKETS,
  },
  {
    name: "List Orders",
    method: "GET",
    path: path("/orders"),
    scope: "exchange:read_order",
    rate: "api",
    query: { profile_id: TEXT, account_id: TEXT, ...orderFilters },
    combination: accountOrProfile,
    list: { orders: true },
  },
  {
    name: "List Profile Orders",
    method: "GET",
    path: path("/profiles/{profile_id}/orders"),
    scope: "exchange:read_order",
    rate: "api",
    query: orderFilters,
    list: { orders: true },
  },
  {
    name: "Get Order",
    method: "GET",
    path: path("/profiles/{profile_id}/orders/{id}"),
    scope: "exchange:read_order",
    rate: "api",
  },
  {
    name: "Cancel Order",
    method: "DELETE",
    path: path("/profiles/{profile_id}/orders/{id}"),
    scope: "exchange:write_order",
    rate: "api",
  },
  {
    name: "Create Order",
    method: "POST",
    path: path("/profiles/{profile_id}/orders"),
    scope: "exchange:write_order",
    rate: "api",
    body: {
      fields: {
        ref_id: FIELD_TEXT,
        side: { kind: "enum", values: ORDER_SIDES },
        market: { kind: "enum", values: ORDER_MARKETS },
        type: { kind: "enum", values: ORDER_TYPES },
        base_amount: AMOUNT,
        price: FIELD_TEXT,
        quote_amount: AMOUNT,
        metadata: METADATA,
        await_fill_millis: { kind: "integer", max: 10_000 },
        time_in_force: { kind: "enum", values: TIMES_IN_FORCE },
        expiration_date: { kind: "digits" },
        identity_id: FIELD_TEXT,
        identity_account_id: FIELD_TEXT,
        stop_price: FIELD_TEXT,
        recipient_profile_id: FIELD_TEXT,
        self_match_prevention_id: { kind: "text", maxLength: 36 },
      },
      required: ["side", "market", "type"],
      across: orderQuantities,
    },
  },
  {
    name: "List Executions",
    method: "GET",
    path: path("/executions"),
    scope: "exchange:read_order",
    rate: "api",
    query: { profile_id: TEXT, account_id: TEXT, ...executionFilters, limit: limit(1000) },
    combination: accountOrProfile,
    list: {},
  },
  {
    name: "List Profile Executions",
    method: "GET",
    path: path("/profiles/{profile_id}/executions"),
    scope: "exchange:read_order",
    rate: "api",
    query: { ...executionFilters, limit: limit(500) },
    list: { defaultLimit: 20 },
  },
  {
    name: "Create Internal Transfer",
    method: "POST",
    path: path("/transfer/internal"),
    scope: "transfer:write_internal_transfer",
    rate: "transfer",
    body: {
      fields: {
        ref_id: FIELD_TEXT,
        from_profile_id: FIELD_TEXT,
        to_profile_id: FIELD_TEXT,
        amount: AMOUNT,
        asset: FIELD_TEXT,
        metadata: METADATA,
        recipient_metadata: METADATA,
        from_identity_id: FIELD_TEXT,
        from_account_id: FIELD_TEXT,
        to_identity_id: FIELD_TEXT,
        to_account_id: FIELD_TEXT,
      },
      required: ["from_profile_id", "to_profile_id", "amount", "asset"],
    },
  },
  {
    name: "List Transfers",
    method: "GET",
    path: path("/transfer/transfers"),
    scope: "transfer:read_transfer",
    rate: "api",
    query: {
      profile_ids: list(undefined, 100),
      identity_ids: list(undefined, 100),
      ref_ids: list(undefined, 100),
      account_ids: list(undefined, 100),
      ids: list(undefined, 100),
      type: list(TRANSFER_TYPES),
      group_ids: list(undefined, 100),
      crypto_tx_hashes: list(undefined, 100),
      secondary_statuses: list(SECONDARY_STATUSES),
      statuses: list(TRANSFER_STATUSES),
      ...timeRange("created_at"),
      ...timeRange("updated_at"),
      limit: limit(1000),
      order: oneOf(["DESC", "ASC"]),
      order_by: oneOf(["CREATED_AT", "UPDATED_AT"]),
      page_cursor: TEXT,
    },
    combination: transferCombination,
    list: { defaultLimit: 100 },
  },
  {
    name: "Get Transfer",
    method: "GET",
    path: path("/transfer/transfers/{id}"),
    scope: "transfer:read_transfer",
    rate: "api",
  },
  {
    name: "Create Sandbox Deposit",
    method: "POST",
    path: path("/sandbox/profiles/{profile_id}/deposit"),
    scope: "funding:read_profile",
    rate: "api",
    body: {
      fields: { asset: FIELD_TEXT, amount: AMOUNT, crypto_network: FIELD_TEXT },
      required: ["asset", "amount"],
    },
  },
];

/** The operation at `method` and `path` (below /v2), or undefined: not an endpoint the reference documents. */
export const operationAt = (method: string, path: string): Operation | undefined =>
  OPERATIONS.find((o) => o.method === method && o.path.test(path));

const refuse = (status: number, reason: RefusalReason, detail: string): Refusal => ({ status, reason, detail });

/** RFC 3339, as the reference asks ("like `2006-01-02T15:04:05Z`"). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function checkValue(name: string, param: Param, values: string[]): Refusal | undefined {
  const bad = (what: string) => refuse(400, "invalid query value", `${name}: ${what}`);
  if (param.kind === "list") {
    if (param.max !== undefined && values.length > param.max) return bad(`at most ${param.max} values`);
    const allowed = param.values;
    const wrong = allowed && values.find((v) => !allowed.includes(v));
    return allowed && wrong !== undefined ? bad(`"${wrong}" is not one of ${allowed.join(", ")}`) : undefined;
  }
  if (values.length > 1) return bad("given more than once");
  const value = values[0]!;
  switch (param.kind) {
    case "text":
      return undefined;
    case "time":
      return RFC3339.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : bad(`"${value}" is not RFC 3339`);
    case "boolean":
      return value === "true" || value === "false" ? undefined : bad(`"${value}" is not a boolean`);
    case "enum":
      return param.values.includes(value) ? undefined : bad(`"${value}" is not one of ${param.values.join(", ")}`);
    case "limit":
      if (!/^\d+$/.test(value) || Number(value) < 1) return bad(`"${value}" is not a positive whole number`);
      return Number(value) > param.max
        ? refuse(400, "limit above maximum", `limit ${value} is above the maximum of ${param.max}`)
        : undefined;
  }
}

/** What the reference says of a request's query: undefined when it documents every parameter and value. */
export function checkQuery(op: Operation, query: Query): Refusal | undefined {
  for (const [name, values] of query) {
    const param = op.query?.[name];
    if (!param) return refuse(400, "undocumented query parameter", `${op.name} documents no parameter ${name}`);
    const wrong = checkValue(name, param, values);
    if (wrong) return wrong;
  }
  const combined = op.combination?.(query);
  return combined ? refuse(400, "filter combination", combined) : undefined;
}

/** A market named in the path that the reference (or the double's market list) does not have. */
export function checkPathMarket(op: Operation, path: string, listed: readonly string[]): Refusal | undefined {
  if (!op.pathMarkets) return undefined;
  const market = decodeURIComponent(path.split("/")[2] ?? "");
  return op.pathMarkets.includes(market) && listed.includes(market)
    ? undefined
    : refuse(404, "unlisted market", `${op.name}: ${market} is not a market of the service`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function checkField(name: string, field: Field, value: unknown): string | undefined {
  switch (field.kind) {
    case "text":
      if (typeof value !== "string") return `${name} must be a string`;
      return field.maxLength !== undefined && value.length > field.maxLength
        ? `${name} may be at most ${field.maxLength} characters`
        : undefined;
    case "amount":
      return typeof value === "string" && /^[0-9]*\.?[0-9]+$/.test(value)
        ? undefined
        : `${name} must be a positive decimal string`;
    case "enum":
      return typeof value === "string" && field.values.includes(value)
        ? undefined
        : `${name} must be one of ${field.values.join(", ")}`;
    case "integer":
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= field.max
        ? undefined
        : `${name} must be a whole number from 0 to ${field.max}`;
    case "digits":
      return typeof value === "string" && /^\d+$/.test(value) ? undefined : `${name} must be a string of digits`;
    case "metadata": {
      if (!isObject(value)) return `${name} must be an object of strings`;
      const pairs = Object.entries(value);
      if (pairs.length > 6) return `${name} holds at most 6 pairs`;
      const wrong = pairs.find(([k, v]) => typeof v !== "string" || k.length > 100 || v.length > 100);
      return wrong ? `${name}.${wrong[0]}: keys and values are strings of at most 100 characters` : undefined;
    }
  }
}

/** What the reference says of a create's body: undefined when every field is documented and well formed. */
export function checkBody(op: Operation, contentType: string | undefined, text: string): Refusal | undefined {
  const rules = op.body;
  if (!rules) return text.length > 0 ? refuse(400, "invalid body", `${op.name} takes no body`) : undefined;
  if (!/^application\/json\b/i.test(contentType ?? ""))
    return refuse(400, "invalid body", `${op.name}: the body must be application/json`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, "invalid body", `${op.name}: the body is not JSON`);
  }
  if (!isObject(body)) return refuse(400, "invalid body", `${op.name}: the body must be a JSON object`);
  const unknown = Object.keys(body).filter((k) => !(k in rules.fields));
  if (unknown.length) return refuse(400, "unknown body field", `${op.name} has no field ${unknown.join(", ")}`);
  const missing = rules.required.filter((f) => body[f] === undefined);
  if (missing.length) return refuse(400, "invalid body", `${op.name} needs ${missing.join(", ")}`);
  for (const [name, value] of Object.entries(body)) {
    const wrong = checkField(name, rules.fields[name]!, value);
    if (wrong) return refuse(400, "invalid body", wrong);
  }
  const across = rules.across?.(body);
  return across ? refuse(400, "invalid body", across) : undefined;
}
