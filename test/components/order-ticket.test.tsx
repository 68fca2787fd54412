// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { OrderTicket } from "@/components/orders/order-ticket";
import { renderAs } from "../support/components";

/**
 * The order ticket as /orders renders it, its profiles, markets and balances the in-process back
 * end's: its rules (issue 1's client-side validation, as the spec words them), each refused on
 * its field with nothing sent, and the profile it starts from (issue 26). Placing orders, and the
 * keyboard across a real page, are the e2e project's (e2e/order-ticket.test.ts, e2e/entry.test.ts).
 */

/** A datetime-local input's value for a moment `ms` from now, in this process's time zone. */
function localInputValue(ms: number): string {
  const d = new Date(Date.now() + ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

describe("the order ticket", () => {
  it("refuses each broken rule of an order on its field, with no request sent", async () => {
    const page = await renderAs("trader", <OrderTicket email="trader@example.com" controlsLine={null} />);
    try {
      const user = userEvent.setup();
      const ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
      const field = (label: string) => ticket.getByLabelText(label, { selector: "input, select" });
      await waitFor(() => expect(field("Profile").querySelectorAll("option").length).toBeGreaterThan(1));
      const fill = async (label: string, text: string) => {
        await user.clear(field(label));
        if (text) await user.type(field(label), text);
      };
      /** "Review order", then the field's own message, once it is marked invalid. */
      const refusedOn = async (label: string) => {
        await user.click(ticket.getByRole("button", { name: "Review order" }));
        await waitFor(() => expect(field(label).getAttribute("aria-invalid")).toBe("true"));
        const ids = (field(label).getAttribute("aria-describedby") ?? "").split(" ");
        const errorId = ids.find((id) => id.endsWith("-error"));
        expect(errorId, "the error is tied to its field").toBeTruthy();
        return document.getElementById(errorId!)?.textContent;
      };

      expect(await refusedOn("Profile")).toMatch(/Choose the profile/);
      await user.selectOptions(field("Profile"), "Trading");

      expect(await refusedOn("Price (USD)")).toMatch(/Price is required for a limit order/);
      await fill("Price (USD)", "65000.10");
      expect(await refusedOn("Price (USD)")).toMatch(/multiple of 0\.25, the tick size of BTC\/USD/);
      await fill("Price (USD)", "1e5");
      expect(await refusedOn("Price (USD)")).toMatch(/no sign, exponent/);
      await fill("Price (USD)", "30000.00");

      await fill("Base amount (BTC)", "0.000000001");
      expect(await refusedOn("Base amount (BTC)")).toMatch(/at most 8 decimal places/);
      await fill("Base amount (BTC)", "-1");
      expect(await refusedOn("Base amount (BTC)")).toMatch(/no sign/);
      await fill("Base amount (BTC)", "0.01");

      await user.selectOptions(field("Time in force"), "GTT");
      await fill("Expires (your local time)", localInputValue(5_000));
      expect(await refusedOn("Expires (your local time)")).toMatch(
        /A GTT order must expire more than 10 seconds from now/,
      );
      await user.selectOptions(field("Time in force"), "GTC");

      await user.click(ticket.getByText("Advanced"));
      await fill("Wait for fill (ms)", "10001");
      expect(await refusedOn("Wait for fill (ms)")).toMatch(/at most 10000 ms/);
      await fill("Wait for fill (ms)", "");

      await fill("Identity ID", "end-user-1");
      expect(await refusedOn("Identity account ID")).toMatch(/required when an identity ID is sent/);
      await fill("Identity ID", "");

      await user.click(field("Self-match prevention ID"));
      await user.paste("x".repeat(37));
      expect(await refusedOn("Self-match prevention ID")).toMatch(/at most 36 characters/);
      await fill("Self-match prevention ID", "");

      const ref = (field("Ref ID") as HTMLInputElement).value;
      await fill("Ref ID", "has a space");
      expect(await refusedOn("Ref ID")).toMatch(/visible ASCII/);
      await fill("Ref ID", ref);

      const addPair = () => user.click(ticket.getByRole("button", { name: "Add pair" }));
      await addPair();
      await fill("Metadata key 1", "desk");
      // Pasted: typing 101 characters one key at a time is slow, and the rule is the length.
      await user.click(field("Metadata value 1"));
      await user.paste("v".repeat(101));
      await user.click(ticket.getByRole("button", { name: "Review order" }));
      expect(await ticket.findByText('Metadata value for "desk" is longer than 100 characters')).toBeTruthy();
      for (let i = 0; i < 5; i++) await addPair();
      expect(
        (ticket.getByRole("button", { name: "Add pair" }) as HTMLButtonElement).disabled,
        "a 7th pair cannot be added",
      ).toBe(true);

      await user.selectOptions(field("Order type"), "MARKET");
      await fill("Quote amount (USD)", "10.001");
      expect(await refusedOn("Quote amount (USD)")).toMatch(/at most 2 decimal places/);

      expect(page.writes()).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** The ticket as `role` opens it in this browser (jsdom's one localStorage): a page load. */
async function open(role: "trader" | "admin") {
  const page = await renderAs(role, <OrderTicket email={`${role}@example.com`} controlsLine={null} />);
  const ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
  const profile = ticket.getByLabelText("Profile", { selector: "select" }) as HTMLSelectElement;
  await waitFor(() => expect(profile.querySelectorAll("option").length).toBeGreaterThan(1));
  const chosen = () => profile.selectedOptions[0]?.textContent;
  return { page, ticket, profile, chosen };
}

describe("the ticket starts from the last profile its person chose", () => {
  it("keeps a person's profile across a reload, and gives it to nobody else on the same browser", async () => {
    const user = userEvent.setup();
    let opened = await open("trader");
    /** Closes the page open, opens `role`'s. */
    const reopen = async (role: "trader" | "admin") => {
      await opened.page.close();
      opened = await open(role);
    };
    try {
      await user.selectOptions(opened.profile, "Treasury");

      await reopen("trader");
      await waitFor(() => expect(opened.chosen(), "the trader's choice, after a reload").toBe("Treasury"));

      await reopen("admin");
      // A change whose effect is on screen: React has run the effects of the render that drew the profiles.
      await user.selectOptions(opened.ticket.getByLabelText("Order type", { selector: "select" }), "MARKET");
      await opened.ticket.findByLabelText("Quote amount (USD)", { selector: "input" });
      expect(opened.profile.value, "the admin starts with no profile chosen").toBe("");
      await user.selectOptions(opened.profile, "Settlement");

      await reopen("trader");
      await waitFor(() =>
        expect(opened.chosen(), "the trader's own choice, untouched by the admin's").toBe("Treasury"),
      );

      await reopen("admin");
      await waitFor(() => expect(opened.chosen(), "the admin's own choice").toBe("Settlement"));
    } finally {
      await opened.page.close();
    }
  });
});

describe("each test's browser", () => {
  // The files a worker runs share jsdom's localStorage: a choice left there by another test
  // (entry.test.tsx's trader chose a profile) made the ticket start from it, where the first test
  // above expects none. renderAs empties the storage at each test's first render.
  it("remembers the trader's profile within a test", async () => {
    const { page, profile } = await open("trader");
    try {
      await userEvent.setup().selectOptions(profile, "Treasury");
      expect(localStorage.getItem("dashboard.ticket-profile:trader@example.com")).toBe(profile.value);
    } finally {
      await page.close();
    }
  });

  it("starts the next test with nothing remembered", async () => {
    const { page, profile } = await open("trader");
    try {
      expect(localStorage.length).toBe(0);
      expect(profile.value, "no profile chosen").toBe("");
    } finally {
      await page.close();
    }
  });
});
