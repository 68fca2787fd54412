import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MARKETS,
  MARKET_DETAILS,
  PROTOTYPE_KEYS,
  createOrderRequestSchema,
  fieldErrors,
  fromUnits,
  toUnits,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from "@/lib/spec";
import {
  ORDER_KINDS,
  defaultTimeInForce,
  kindOf,
  refusedTimesInForce,
  validTimesInForce,
} from "../../support/order-spec";
import { NOW } from "./helpers";

const schema = createOrderRequestSchema({ now: () => NOW });
type Request = Record<string, unknown>;

const decimalAt = (scale: number, step = "0") =>
  fc.bigInt({ min: 1n, max: 10n ** 12n }).map((n) => {
    const stepUnits = step === "0" ? 1n : toUnits(step, scale);
    return fromUnits(n * stepUnits, scale);
  });
const shortText = (max: number) => fc.string({ minLength: 1, maxLength: max, unit: "grapheme-ascii" });

/**
 * Generates valid Create Order requests across every type, side, market and option. The
 * quantities and times in force come from the spec's tables (test/support/order-spec.ts),
 * not from lib/spec's functions, which would agree with themselves however wrong.
 */
const validOrder: fc.Arbitrary<Request> = fc
  .record({ kind: fc.constantFrom(...ORDER_KINDS), market: fc.constantFrom(...MARKETS) })
  .chain(({ kind, market }) => {
    const { type, side, required: requiredFields } = kind;
    const tick = MARKET_DETAILS[market].tick_rate;
    const tickScale = tick.split(".")[1]?.length ?? 0;
    const quantity = {
      price: decimalAt(tickScale, tick),
      stop_price: decimalAt(tickScale, tick),
      base_amount: decimalAt(8),
      quote_amount: decimalAt(2),
    };
    const required: Record<string, fc.Arbitrary<string>> = Object.fromEntries(
      requiredFields.map((f) => [f, quantity[f]]),
    );
    const requiredKeys = ["side", "market", "type", "tif", "lead", ...requiredFields] as never[];
    return fc
      .record(
        {
          side: fc.constant(side),
          market: fc.constant(market),
          type: fc.constant(type),
          ...required,
          tif: fc.constantFrom(...validTimesInForce(type)),
          lead: fc.integer({ min: 10_001, max: 400 * 86_400_000 }),
          ref_id: fc.stringMatching(/^[\x21-\x7E]{1,128}$/),
          // Prototype keys are refused by name (their own property below).
          metadata: fc.dictionary(
            shortText(100).filter((k) => !PROTOTYPE_KEYS.has(k)),
            fc.string({ maxLength: 100 }),
            { maxKeys: 6 },
          ),
          await_fill_millis: fc.integer({ min: 0, max: 10_000 }),
          identity: fc.tuple(fc.uuid(), fc.uuid()),
          self_match_prevention_id: shortText(36),
        },
        { requiredKeys },
      )
      .map((generated) => {
        const { tif, lead, identity, ...rest } = generated as Request & {
          tif: TimeInForce;
          lead: number;
          identity?: [string, string];
        };
        return {
          ...rest,
          ...(tif !== defaultTimeInForce(type) || tif === "GTT" ? { time_in_force: tif } : {}),
          ...(tif === "GTT" ? { expiration_date: String(NOW + lead) } : {}),
          ...(identity ? { identity_id: identity[0], identity_account_id: identity[1] } : {}),
        };
      });
  });

interface Break {
  name: string;
  applies: (r: Request) => boolean;
  apply: (r: Request) => Request;
  field: (r: Request) => string;
}

const type = (r: Request) => r.type as OrderType;
const rule = (r: Request) => kindOf(type(r), r.side as OrderSide);
/** A time in force the type refuses, GTT aside (it would also want an expiry). */
const refusedTif = (r: Request) => refusedTimesInForce(type(r)).find((t) => t !== "GTT");

/** Each breaks exactly one rule; the request must then fail on that rule's field alone. */
const BREAKS: Break[] = [
  {
    name: "7 metadata pairs",
    applies: () => true,
    field: () => "metadata",
    apply: (r) => ({ ...r, metadata: Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((i) => [`k${i}`, "v"])) }),
  },
  {
    name: "101-char metadata value",
    applies: () => true,
    field: () => "metadata.note",
    apply: (r) => ({ ...r, metadata: { note: "x".repeat(101) } }),
  },
  {
    name: "await_fill_millis 10001",
    applies: () => true,
    field: () => "await_fill_millis",
    apply: (r) => ({ ...r, await_fill_millis: 10_001 }),
  },
  {
    name: "37-char self-match id",
    applies: () => true,
    field: () => "self_match_prevention_id",
    apply: (r) => ({ ...r, self_match_prevention_id: "s".repeat(37) }),
  },
  {
    name: "identity without account",
    applies: () => true,
    field: () => "identity_account_id",
    apply: ({ identity_account_id: _, ...r }) => ({ ...r, identity_id: "someone" }),
  },
  {
    name: "a required quantity dropped",
    applies: () => true,
    field: (r) => rule(r).required[0]!,
    apply: (r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== rule(r).required[0])),
  },
  {
    name: "a refused quantity added",
    applies: () => true,
    field: (r) => rule(r).refused[0]!,
    apply: (r) => ({ ...r, [rule(r).refused[0]!]: "1" }),
  },
  {
    name: "a malformed quantity",
    applies: () => true,
    field: (r) => rule(r).required[0]!,
    apply: (r) => ({ ...r, [rule(r).required[0]!]: "1e3" }),
  },
  {
    name: "a time in force the type refuses",
    applies: (r) => refusedTif(r) !== undefined,
    field: () => "time_in_force",
    apply: ({ expiration_date: _, ...r }) => ({ ...r, time_in_force: refusedTif(r) }),
  },
  {
    name: "a GTT expiring in exactly 10 s",
    applies: (r) => validTimesInForce(type(r)).includes("GTT"),
    field: () => "expiration_date",
    apply: (r) => ({ ...r, time_in_force: "GTT", expiration_date: String(NOW + 10_000) }),
  },
  { name: "an unknown field", applies: () => true, field: () => "quantity", apply: (r) => ({ ...r, quantity: "1" }) },
  {
    name: "a 129-char ref_id",
    applies: () => true,
    field: () => "ref_id",
    apply: (r) => ({ ...r, ref_id: "r".repeat(129) }),
  },
];

describe("Create Order rules, by property", () => {
  it("accepts every generated valid request", () => {
    fc.assert(
      fc.property(validOrder, (request) => {
        const result = schema.safeParse(request);
        expect(result.success ? [] : fieldErrors(result.error)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses a request with one broken rule, on that rule's field alone", () => {
    fc.assert(
      fc.property(validOrder, fc.constantFrom(...BREAKS), (request, broken) => {
        fc.pre(broken.applies(request));
        const result = schema.safeParse(broken.apply(request));
        expect(result.success, broken.name).toBe(false);
        if (result.success) return;
        const fields = new Set(fieldErrors(result.error).map((e) => e.field));
        expect([...fields], broken.name).toEqual([broken.field(request)]);
      }),
      { numRuns: 2000 },
    );
  });
});
