import * as z from "zod/mini";
import { describe, expect, it, vi } from "vitest";
import { specResolver } from "@/components/forms/spec-resolver";

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const schema = z.strictObject({ amount: z.string().check(z.minLength(1, "Amount is required")) });
type Values = { amount: string; note: string };

/** A resolver on a small schema, with a loader that counts its calls and fails when told. */
function resolverWith(load: () => Promise<typeof schema>) {
  return specResolver<Values, { amount: string }, { request: { amount: string }; note: string }>({
    schema: load,
    toRequest: (v) => ({ amount: v.amount }),
    formErrors: (v) => (v.note === "bad" ? { note: { type: "form", message: "Not this note" } } : {}),
    output: (request, v) => ({ request, note: v.note }),
  });
}

describe("specResolver", () => {
  it("loads the schema on the first check only", async () => {
    const load = vi.fn(async () => schema);
    const resolve = resolverWith(load);
    expect(load).not.toHaveBeenCalled();
    await resolve({ amount: "1", note: "" }, undefined, options);
    await resolve({ amount: "", note: "" }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("loads it again after a failed load", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("chunk lost")).mockResolvedValue(schema);
    const resolve = resolverWith(load);
    await expect(resolve({ amount: "1", note: "" }, undefined, options)).rejects.toThrow("chunk lost");
    expect((await resolve({ amount: "1", note: "" }, undefined, options)).errors).toEqual({});
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("reports the schema's errors and the form's own together, and hands nothing over", async () => {
    const result = await resolverWith(async () => schema)({ amount: "", note: "bad" }, undefined, options);
    expect(result.values).toEqual({});
    expect(result.errors.amount?.message).toBe("Amount is required");
    expect(result.errors.note?.message).toBe("Not this note");
  });

  it("hands over the output built from the accepted request", async () => {
    const result = await resolverWith(async () => schema)({ amount: "7", note: "n" }, undefined, options);
    expect(result).toEqual({ values: { request: { amount: "7" }, note: "n" }, errors: {} });
  });
});
