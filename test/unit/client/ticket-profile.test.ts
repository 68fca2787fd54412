import { describe, expect, it } from "vitest";
import { rememberedTicketProfile, rememberTicketProfile } from "@/lib/client/ticket-profile";

/** localStorage as far as the ticket uses it, in memory. */
function memoryStore() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    size: () => items.size,
  };
}
const profiles = [{ id: "p-trading" }, { id: "p-treasury" }];

describe("the ticket's last profile, remembered per person", () => {
  it("gives a person back the profile they chose last", () => {
    const store = memoryStore();
    rememberTicketProfile("trader@example.com", "p-trading", store);
    rememberTicketProfile("trader@example.com", "p-treasury", store);
    expect(rememberedTicketProfile("trader@example.com", profiles, store)).toBe("p-treasury");
  });

  it("gives another person on the same browser nothing of it", () => {
    const store = memoryStore();
    rememberTicketProfile("trader@example.com", "p-trading", store);
    expect(rememberedTicketProfile("admin@example.com", profiles, store)).toBeUndefined();
    rememberTicketProfile("admin@example.com", "p-treasury", store);
    expect(rememberedTicketProfile("trader@example.com", profiles, store)).toBe("p-trading");
    expect(rememberedTicketProfile("admin@example.com", profiles, store)).toBe("p-treasury");
  });

  it("gives nothing once the profile is no longer among the person's", () => {
    const store = memoryStore();
    rememberTicketProfile("trader@example.com", "p-closed", store);
    expect(rememberedTicketProfile("trader@example.com", profiles, store)).toBeUndefined();
    expect(rememberedTicketProfile("trader@example.com", [], store)).toBeUndefined();
  });

  it("forgets the choice when the person chooses no profile", () => {
    const store = memoryStore();
    rememberTicketProfile("trader@example.com", "p-trading", store);
    rememberTicketProfile("trader@example.com", "", store);
    expect(rememberedTicketProfile("trader@example.com", profiles, store)).toBeUndefined();
    expect(store.size()).toBe(0);
  });
});
