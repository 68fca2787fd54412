import { describe, expect, it } from "vitest";
import { statusWords, TRANSFER_TYPE_WORDS, transferTypeWords } from "@/lib/shared/status-words";
import { outcomeOf } from "@/lib/shared/activity-outcome";
import { transferKind } from "@/lib/shared/transfer-rows";
import { TRANSFER_TYPES } from "@/lib/spec/enums";

describe("the service's codes in a desk's words", () => {
  it("statuses and sides read as sentence-case phrases", () => {
    expect(statusWords("PENDING_SUBMISSION")).toBe("Pending submission");
    expect(statusWords("SELL")).toBe("Sell");
    expect(statusWords("post-only limit")).toBe("Post-only limit");
  });

  it("every transfer type has words, the networks keep their names, none is a lower-cased code", () => {
    for (const t of TRANSFER_TYPES) {
      const words = TRANSFER_TYPE_WORDS[t];
      expect(words, t).toMatch(/^[A-Z]/);
      expect(words, t).not.toContain("_");
    }
    expect(transferTypeWords("SEN_DEPOSIT")).toBe("SEN deposit");
    expect(transferTypeWords("SEN_DEPOSIT")).not.toBe("Sen deposit");
    expect(transferTypeWords("SOME_NEW_TYPE")).toBe("Some new type");
  });

  it("a lone record's row says what kind it is in those words", () => {
    const leg = { type: "SEN_DEPOSIT" } as never;
    expect(transferKind({ groupId: undefined, legs: [leg] })).toBe("SEN deposit");
  });

  it("the activity's outcome says what happened, not the service's code in brackets", () => {
    const transfer = { kind: "transfer", status: "succeeded", record: { status: "PENDING" }, problem: null } as const;
    expect(outcomeOf(transfer)).toBe("Transfer sent (pending at the time)");
    expect(outcomeOf(transfer)).not.toMatch(/PENDING|when answered/);
  });
});
