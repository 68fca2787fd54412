import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { fieldPath, REBALANCE_MAX_TARGETS, rebalanceTargetsSchema, targetErrors } from "@/lib/shared/rebalance-targets";

/** The targets' own rules, before any profile is looked up (test/routes/rebalance.test.ts has the route's). */

const aim = (profile_id: string, asset = "USD", target = "100", band = "0") => ({ profile_id, asset, target, band });
const errorsOf = (body: unknown) => {
  const result = z.safeParse(rebalanceTargetsSchema, body);
  return result.success ? [] : targetErrors(result.error);
};

describe("the rebalancing targets' schema", () => {
  it(`takes ${REBALANCE_MAX_TARGETS} targets, and refuses one more on the list alone`, () => {
    const most = Array.from({ length: REBALANCE_MAX_TARGETS }, (_, i) => aim(`profile-${i}`));
    expect(errorsOf({ targets: most })).toEqual([]);
    expect(errorsOf({ targets: [...most, aim("one-more")] })).toEqual([
      { field: "targets", message: `There may be at most ${REBALANCE_MAX_TARGETS} targets` },
    ]);
  });

  it("takes none (the set emptied), zeros, and one profile in many assets", () => {
    expect(errorsOf({ targets: [] })).toEqual([]);
    expect(errorsOf({ targets: [aim("p", "USD", "0", "0"), aim("p", "EUR"), aim("q", "USD")] })).toEqual([]);
  });

  it("names each repeat of a profile and asset on its asset, with where the first one is", () => {
    expect(errorsOf({ targets: [aim("p"), aim("q"), aim("p", "USD", "5"), aim("p", "USD", "6")] })).toEqual([
      {
        field: "targets[2].asset",
        message: "Profile p already has a target in USD (targets[0]): one target per profile and asset",
      },
      {
        field: "targets[3].asset",
        message: "Profile p already has a target in USD (targets[0]): one target per profile and asset",
      },
    ]);
  });

  it("gives each field its first refusal only", () => {
    expect(errorsOf({ targets: [aim("")] })).toEqual([
      { field: "targets[0].profile_id", message: "Profile must not be empty" },
    ]);
  });

  it("writes paths as a person reads them", () => {
    expect(fieldPath(["targets", 2, "band"])).toBe("targets[2].band");
    expect(fieldPath(["targets", 0])).toBe("targets[0]");
    expect(fieldPath(["targets"])).toBe("targets");
    expect(fieldPath([])).toBe("");
  });
});
