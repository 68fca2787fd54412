// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { OrderTicket } from "@/components/orders/order-ticket";
import { PARENT_SLICE_MIN_SECONDS } from "@/lib/shared/parent-order";
import { armed, renderAs } from "../support/components";

/**
 * The ticket's "Work over time" (issue 29): each rule of a TWAP parent order refused on its
 * field in the server's own words, the parent said in a sentence at review, and a parent held
 * for four eyes shown as a held order is. The ticket as /orders renders it for a trader, against
 * the in-process back end. Placing one and following its children, and its page, are the e2e
 * project's (e2e/parent-orders.test.ts).
 */

describe("the ticket's Work over time", () => {
  it("refuses each rule of a parent order on its field in the server's words, says the parent at review, shows it held (202)", async () => {
    const page = await renderAs("trader", <OrderTicket email="trader@example.com" controlsLine={null} />);
    try {
      const user = userEvent.setup();
      const ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
      const field = (label: string) => ticket.getByLabelText(label, { selector: "input, select" });
      const fill = async (label: string, text: string) => {
        await user.clear(field(label));
        await user.type(field(label), text);
      };
      /** "Review order", then the message tied to the field (its aria-describedby). */
      const refusedOn = async (label: string) => {
        await user.click(ticket.getByRole("button", { name: "Review order" }));
        await waitFor(() => expect(field(label).getAttribute("aria-invalid")).toBe("true"));
        const errorId = (field(label).getAttribute("aria-describedby") ?? "")
          .split(" ")
          .find((id) => id.endsWith("-error"));
        expect(errorId, "the error is tied to its field").toBeTruthy();
        return document.getElementById(errorId!)?.textContent;
      };
      const parentPosts = () => page.writes().filter((w) => w === "POST /api/parent-orders");

      await waitFor(() => expect(field("Profile").querySelectorAll("option").length).toBeGreaterThan(1));
      await user.selectOptions(field("Profile"), "Treasury");
      await user.click(ticket.getByLabelText("Work over time (TWAP)"));
      // The price is the cap now; the time in force is the children's own (IOC).
      await ticket.findByLabelText("Cap: limit price (USD)", { selector: "input" });
      expect(ticket.queryByLabelText("Time in force", { selector: "select" })).toBeNull();

      await fill("Base amount (BTC)", "2");
      await fill("Cap: limit price (USD)", "66000.10");
      await fill("Duration", "30");
      await fill("Slices", "30");
      expect(await refusedOn("Cap: limit price (USD)")).toMatch(/Limit price must be a multiple of 0\.25/);
      await fill("Cap: limit price (USD)", "66000");

      await fill("Duration", "0.5");
      expect(await refusedOn("Duration")).toMatch(/Duration must be at least 60/);
      await user.selectOptions(field("Duration unit"), "hours");
      await fill("Duration", "25");
      expect(await refusedOn("Duration")).toMatch(/Duration may be at most 86,400/);
      await user.selectOptions(field("Duration unit"), "seconds");
      await fill("Duration", "60");
      await fill("Slices", "13");
      expect(await refusedOn("Slices")).toMatch(
        new RegExp(`at least ${PARENT_SLICE_MIN_SECONDS} seconds apart: at most 12 over 60 seconds`),
      );
      await fill("Slices", "1");
      expect(await refusedOn("Slices")).toMatch(/Slices must be at least 2/);
      await fill("Slices", "6");
      await fill("Base amount (BTC)", "0.00000005");
      expect(await refusedOn("Base amount (BTC)")).toMatch(/each of the 6 slices/);

      // Put right: the review says the parent in a sentence; nothing was sent on the way.
      await fill("Base amount (BTC)", "2");
      await user.selectOptions(field("Duration unit"), "minutes");
      await fill("Duration", "30");
      await fill("Slices", "30");
      await user.click(ticket.getByRole("button", { name: "Review order" }));
      expect((await ticket.findByTestId("order-review")).textContent).toBe(
        "Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD, from Treasury.",
      );
      expect(parentPosts(), "nothing is sent while a rule is broken, nor at review").toEqual([]);
      // Weighed whole: 2 BTC at the cap is past the desk's 100,000 USD rule for four eyes (202).
      await user.click(await armed(await ticket.findByRole("button", { name: "Submit for approval" })));
      const held = await ticket.findByTestId("awaiting-approval");
      expect(parentPosts()).toHaveLength(1);
      expect(within(held).getByTestId("approval-what").textContent).toBe(
        "TWAP: Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD, from Treasury.",
      );
      await user.click(within(held).getByRole("button", { name: "Withdraw request" }));
      await waitFor(() => expect(held.getAttribute("data-status")).toBe("WITHDRAWN"));
    } finally {
      await page.close();
    }
  });
});
