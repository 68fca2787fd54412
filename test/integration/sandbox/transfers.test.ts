import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transferRecordSchema } from "@/lib/spec";
import { profileId } from "@/lib/sandbox/seed";
import { eventually } from "../../support/dashboard";
import { sandboxClient, startSandboxServer, type SandboxServer } from "../../support/sandbox-server";

let server: SandboxServer;
let api: ReturnType<typeof sandboxClient>;
const TREASURY = profileId("treasury");
const SETTLEMENT = profileId("settlement");
let refs = 0;
const ref = () => `tr-${process.pid}-${++refs}`;

beforeAll(async () => {
  server = await startSandboxServer();
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

const balance = async (profile: string, asset: string) => {
  const res = await api.call("GET", `/profiles/${profile}/balances`);
  return res.body.items.find((b: { asset: string }) => b.asset === asset) ?? { available: "0", trading: "0" };
};
const transfer = (body: object) => api.call("POST", "/transfer/internal", body);

describe("Create Internal Transfer", () => {
  it("returns the PENDING DEBIT leg; both legs share a group and complete shortly after", async () => {
    const before = [await balance(TREASURY, "USD"), await balance(SETTLEMENT, "USD")];
    const res = await transfer({
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: "1250.50",
      ref_id: ref(),
      metadata: { purpose: "payroll" },
      recipient_metadata: { note: "incoming" },
    });
    expect(res.status).toBe(200);
    expect(transferRecordSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({
      profile_id: TREASURY,
      direction: "DEBIT",
      type: "INTERNAL_TRANSFER_DEBIT",
      status: "PENDING",
      amount: "1250.5",
      total: "1250.5",
      fee: "0",
      asset: "USD",
      auto_conversion: {},
      metadata: { purpose: "payroll" },
    });
    const group = res.body.group_id as string;
    const legs = await api.call("GET", `/transfer/transfers?group_ids=${group}`);
    expect(
      legs.body.items.map((t: { direction: string; profile_id: string; metadata: object }) => [
        t.direction,
        t.profile_id,
        t.metadata,
      ]),
    ).toEqual([
      ["DEBIT", TREASURY, { purpose: "payroll" }],
      ["CREDIT", SETTLEMENT, { note: "incoming" }],
    ]);
    expect(Number((await balance(TREASURY, "USD")).available) < Number(before[0].available)).toBe(true);
    expect((await balance(SETTLEMENT, "USD")).available).not.toBe(before[1].available);

    const done = await eventually(async () => {
      const legs = (await api.call("GET", `/transfer/transfers?group_ids=${group}`)).body.items as { status: string }[];
      return legs.every((t) => t.status === "COMPLETED") ? legs : undefined;
    });
    expect(done).toHaveLength(2);
    expect((await api.call("GET", `/transfer/transfers/${res.body.id}`)).body.status).toBe("COMPLETED");
  });

  it("answers 403 insufficient funds with the amounts", async () => {
    const res = await transfer({ from_profile_id: SETTLEMENT, to_profile_id: TREASURY, asset: "BTC", amount: "1000" });
    expect(res).toMatchObject({
      status: 403,
      body: { title: "Insufficient Funds", meta: { profile_id: SETTLEMENT, asset: "BTC", needed: "1000" } },
    });
  });

  it("answers 404 to an unknown profile", async () => {
    const res = await transfer({ from_profile_id: TREASURY, to_profile_id: "nobody", asset: "USD", amount: "1" });
    expect(res).toMatchObject({ status: 404, body: { detail: "profile not found: nobody" } });
  });

  it("answers 400 naming the field", async () => {
    const same = await transfer({ from_profile_id: TREASURY, to_profile_id: TREASURY, asset: "USD", amount: "1" });
    expect(same.status).toBe(400);
    expect(same.body.meta.errors).toEqual([
      { field: "to_profile_id", message: "To profile must differ from the from profile" },
    ]);
    const missing = await transfer({ from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD" });
    expect(missing.body.meta.errors).toEqual([{ field: "amount", message: "Amount is required" }]);
  });

  it("answers 409 to a reused ref_id, and moves the money once", async () => {
    const id = ref();
    const before = await balance(SETTLEMENT, "EUR");
    const body = { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "EUR", amount: "10", ref_id: id };
    const results = await Promise.all(Array.from({ length: 20 }, () => transfer(body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(19);
    // In Create Internal Transfer's own words, with the existing DEBIT leg in meta.existing.
    const debit = results.find((r) => r.status === 200)!.body;
    for (const c of conflicts) {
      expect(c.body).toEqual({
        type: expect.stringMatching(/already-exists$/),
        title: "Already exists",
        status: 409,
        detail: "Transfer with ref_id already exists",
        meta: { existing: debit },
      });
    }
    const after = await balance(SETTLEMENT, "EUR");
    expect(BigInt(after.available.split(".")[0]) - BigInt(before.available.split(".")[0])).toBe(10n);
    expect((await api.call("GET", `/transfer/transfers?ref_ids=${id}`)).body.items).toHaveLength(1);
  });
});

describe("List Transfers: filters as the service combines them", () => {
  const list = (query: string) => api.call("GET", `/transfer/transfers?${query}`);
  const SINCE = "created_at.gte=2020-01-01T00:00:00Z";

  it.each([
    ["profile_ids", `profile_ids=${TREASURY}&statuses=PENDING`, "statuses"],
    ["profile_ids", `profile_ids=${TREASURY}&type=INTERNAL_TRANSFER_DEBIT`, "type"],
    [
      "profile_ids",
      `profile_ids=${TREASURY}&statuses=COMPLETED&type=INTERNAL_TRANSFER_DEBIT&${SINCE}`,
      "statuses, type",
    ],
    ["profile_ids", `profile_ids=${TREASURY}&ref_ids=x`, "ref_ids"],
    ["ref_ids", "ref_ids=x&group_ids=y", "group_ids"],
    ["ids", "ids=x&statuses=PENDING", "statuses"],
    ["type", "type=INTERNAL_TRANSFER_DEBIT&statuses=COMPLETED", "statuses"],
    ["account_ids", "account_ids=a&group_ids=g", "group_ids"],
    ["identity_ids", "identity_ids=i&crypto_tx_hashes=h", "crypto_tx_hashes"],
  ])("refuses %s with other than created_at.* or updated_at.*: %s", async (only, query, others) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    // As the service's published Bad Request: no meta.
    expect(res.body).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: `${only} invalid: can be combined with created_at.* or updated_at.* filtering options only, not with ${others}`,
    });
  });

  it("answers each of them with created_at.* or updated_at.* bounds, paging and ordering", async () => {
    const id = ref();
    const body = { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount: "3", ref_id: id };
    const debit = (await transfer(body)).body;
    const bounds = `created_at.gte=${debit.created_at}&created_at.lte=${debit.created_at}&updated_at.gte=2020-01-01T00:00:00Z`;
    const paging = "limit=1000&order=DESC";
    for (const query of [
      `profile_ids=${TREASURY}&${bounds}&${paging}`,
      `ref_ids=${id}&${bounds}`,
      `ids=${debit.id}&created_at.eq=${debit.created_at}`,
      `type=INTERNAL_TRANSFER_DEBIT&type=WIRE_DEPOSIT&${bounds}`,
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(200);
      expect(
        res.body.items.map((t: { id: string }) => t.id),
        query,
      ).toContain(debit.id);
    }
    // Filters without that rule combine freely.
    const free = await list(`group_ids=${debit.group_id}&statuses=PENDING&statuses=COMPLETED&${SINCE}`);
    expect(free.body.items).toHaveLength(2);
  });

  it("orders ascending on request, and by updated_at only with updated_at bounds", async () => {
    const asc = await list(`order=ASC&limit=3`);
    const times = asc.body.items.map((t: { created_at: string }) => t.created_at);
    expect(times).toEqual([...times].sort());
    const clash = await list(`order_by=UPDATED_AT&${SINCE}`);
    expect(clash.status).toBe(400);
    expect(clash.body.detail).toMatch(/^order_by invalid: when specifying both order_by and a timestamp filter/);
    expect((await list("order_by=UPDATED_AT&updated_at.gt=2020-01-01T00:00:00Z")).status).toBe(200);
  });

  it("the last page has no next_page_cursor key", async () => {
    const all = await list("limit=1000");
    expect(all.body.items.length).toBeLessThan(1000);
    expect(Object.keys(all.body)).toEqual(["items"]);
  });
});

describe("profiles, balances and deposits", () => {
  it("lists the demo profiles", async () => {
    const res = await api.call("GET", "/profiles");
    expect(res.body.items.map((p: { nickname: string }) => p.nickname)).toEqual(
      expect.arrayContaining(["Treasury", "Trading", "Settlement", "Operations reserve"]),
    );
    expect(res.body.items.map((p: { nickname: string }) => p.nickname)).not.toContain("Market maker");
    // All on one page: the last page has no next_page_cursor key.
    expect(Object.keys(res.body)).toEqual(["items"]);
  });

  it("funds a profile through the sandbox deposit", async () => {
    const ops = profileId("operations-reserve");
    const before = await balance(ops, "LINK");
    const res = await api.call("POST", `/sandbox/profiles/${ops}/deposit`, { asset: "LINK", amount: "12.5" });
    expect(res.status).toBe(200);
    expect(typeof res.body.activity_id).toBe("string");
    expect(before.available).toBe("0");
    expect(await balance(ops, "LINK")).toEqual({ asset: "LINK", available: "12.5", trading: "0" });
    const refused = await api.call("POST", `/sandbox/profiles/${ops}/deposit`, { asset: "LINK", amount: "0" });
    expect(refused.body.meta.errors[0].field).toBe("amount");
  });
});
