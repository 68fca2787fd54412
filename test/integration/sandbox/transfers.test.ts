import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transferRecordSchema } from "@/lib/spec";
import { profileId } from "@/lib/sandbox/seed";
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

    await new Promise((r) => setTimeout(r, 500));
    const done = await api.call("GET", `/transfer/transfers?group_ids=${group}`);
    expect(done.body.items.map((t: { status: string }) => t.status)).toEqual(["COMPLETED", "COMPLETED"]);
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
    expect(results.filter((r) => r.status === 409).map((r) => r.body.title)).toEqual(Array(19).fill("Already Exists"));
    const after = await balance(SETTLEMENT, "EUR");
    expect(BigInt(after.available.split(".")[0]) - BigInt(before.available.split(".")[0])).toBe(10n);
    expect((await api.call("GET", `/transfer/transfers?ref_ids=${id}`)).body.items).toHaveLength(1);
  });
});

describe("profiles, balances and deposits", () => {
  it("lists the demo profiles", async () => {
    const res = await api.call("GET", "/profiles");
    expect(res.body.items.map((p: { nickname: string }) => p.nickname)).toEqual(
      expect.arrayContaining(["Treasury", "Trading", "Settlement", "Operations reserve"]),
    );
    expect(res.body.items.map((p: { nickname: string }) => p.nickname)).not.toContain("Market maker");
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
