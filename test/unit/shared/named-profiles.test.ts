import { describe, expect, it } from "vitest";
import { mentionsAnId, namedProblem, nameProfiles } from "@/lib/shared/named-profiles";

const RESERVE = "4406aa9c-1b2e-4c3d-8e9f-0a1b2c3d4e5f";
const TRADING = "7f3c0d11-2222-4333-8444-555566667777";
const ORDER = "0b9e8d7c-6b5a-4948-8776-655443322110";
const names: Record<string, string> = { [RESERVE]: "Operations reserve", [TRADING]: "Trading" };
const nickname = (id: string) => names[id] ?? id;

describe("profiles by name in the service's messages", () => {
  it("replaces each profile's UUID, and the word 'profile' before it, with its nickname", () => {
    expect(nameProfiles(`insufficient LINK funds in profile ${RESERVE}: 1 needed, 0 available`, nickname)).toBe(
      "insufficient LINK funds in Operations reserve: 1 needed, 0 available",
    );
    expect(
      nameProfiles(`from ${TRADING.toUpperCase()} to profile ${RESERVE}`, (id) => names[id.toLowerCase()] ?? id),
    ).toBe("from Trading to Operations reserve");
    expect(nameProfiles(`${RESERVE} and ${RESERVE}`, nickname)).toBe("Operations reserve and Operations reserve");
  });

  it("keeps an id the dashboard does not know as a profile (an order's), and text without ids", () => {
    expect(nameProfiles(`order not found: ${ORDER}`, nickname)).toBe(`order not found: ${ORDER}`);
    expect(nameProfiles(`profile ${ORDER} not found`, nickname)).toBe(`profile ${ORDER} not found`);
    expect(nameProfiles("market conditions have invalidated this order", nickname)).toBe(
      "market conditions have invalidated this order",
    );
  });

  it("says whether a text holds an id worth naming", () => {
    expect(mentionsAnId(`insufficient USD funds in profile ${TRADING}`)).toBe(true);
    expect(mentionsAnId("Insufficient Funds")).toBe(false);
    expect(mentionsAnId(undefined)).toBe(false);
  });

  it("names a problem's title and detail and keeps its meta's ids for machines", () => {
    const p = {
      type: "/sandbox/problems/insufficient-funds",
      title: "Insufficient Funds",
      status: 403,
      detail: `insufficient LINK funds in profile ${RESERVE}: 1 needed, 0 available`,
      meta: { profile_id: RESERVE, asset: "LINK", available: "0", needed: "1" },
    };
    expect(namedProblem(p, nickname)).toEqual({
      ...p,
      detail: "insufficient LINK funds in Operations reserve: 1 needed, 0 available",
    });
    const untitled = { type: "about:blank", title: `Profile ${TRADING}`, status: 404 };
    expect(namedProblem(untitled, nickname)).toEqual({ ...untitled, title: "Trading" });
  });
});
