import { describe, expect, it } from "vitest";
import { REJECT_REASON_MAX_CHARS } from "@/lib/shared/decisions";
import { rejectReasonSchema } from "@/lib/shared/reject-reason";

const messageOf = (input: unknown) => rejectReasonSchema.safeParse(input).error?.issues[0]?.message;

describe("a rejection's reason", () => {
  it("is kept trimmed", () => {
    expect(rejectReasonSchema.parse("  Over the desk's budget \n")).toBe("Over the desk's budget");
  });

  it("is required: missing, empty or only spaces is refused in the same words", () => {
    for (const input of [undefined, 42, "", "   \n "])
      expect(messageOf(input)).toBe("Say why you reject this request: the requester will read it");
  });

  it("holds at most REJECT_REASON_MAX_CHARS characters once trimmed", () => {
    expect(REJECT_REASON_MAX_CHARS).toBe(500);
    expect(rejectReasonSchema.parse(` ${"x".repeat(REJECT_REASON_MAX_CHARS)} `)).toHaveLength(REJECT_REASON_MAX_CHARS);
    expect(messageOf("x".repeat(REJECT_REASON_MAX_CHARS + 1))).toBe("The reason may be at most 500 characters");
  });
});
