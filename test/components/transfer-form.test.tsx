// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { TransferForm } from "@/components/transfers/transfer-form";
import { renderAs } from "../support/components";

/**
 * The transfer form's rules (issue 1's client-side validation, as the spec words them), each
 * refused on its field with nothing sent: the form as the Transfers page renders it for ops,
 * its profiles and balances the in-process back end's. Sending one, and what follows, is the
 * e2e project's (e2e/transfers.test.ts).
 */

describe("the transfer form", () => {
  it("refuses each broken rule on its field, with no request sent", async () => {
    const page = await renderAs("ops", <TransferForm controlsLine={null} />);
    try {
      const user = userEvent.setup();
      const form = within(await screen.findByRole("form", { name: "Internal transfer" }));
      const field = (label: string) => form.getByLabelText(label, { selector: "input, select" });
      await waitFor(() => expect(field("From profile").querySelectorAll("option").length).toBeGreaterThan(1));
      /** The message the field is described by, once it is marked invalid. */
      const errorOf = async (label: string) => {
        await waitFor(() => expect(field(label).getAttribute("aria-invalid")).toBe("true"));
        const ids = (field(label).getAttribute("aria-describedby") ?? "").split(" ");
        return document.getElementById(ids.find((id) => id.endsWith("-error"))!)?.textContent;
      };
      const review = () => user.click(form.getByRole("button", { name: "Review transfer" }));
      const amount = async (text: string) => {
        await user.clear(field("Amount"));
        if (text) await user.type(field("Amount"), text);
      };

      await review();
      expect(await errorOf("From profile")).toBe("From profile is required");
      expect(await errorOf("To profile")).toBe("To profile is required");
      expect(await errorOf("Amount")).toBe("Amount is required");

      await user.selectOptions(field("From profile"), "Treasury");
      await user.selectOptions(field("To profile"), "Treasury");
      await amount("0");
      await review();
      expect(await errorOf("To profile")).toBe("To profile must differ from the from profile");
      expect(await errorOf("Amount")).toBe("Amount must be greater than zero");

      await user.selectOptions(field("To profile"), "Settlement");
      // Thousands grouped as the desk writes them are read ("1,000" is 1000); a comma elsewhere is refused.
      await amount("1,00");
      await review();
      expect(await errorOf("Amount")).toMatch(/^Amount /);

      await amount("10");
      await user.click(form.getByText("Advanced"));
      await user.click(form.getAllByRole("button", { name: "Add pair" })[1]!);
      await user.type(field("Recipient metadata key 1"), "note");
      // Pasted: typing 101 characters one key at a time is slow, and the rule is the length.
      await user.click(field("Recipient metadata value 1"));
      await user.paste("x".repeat(101));
      await review();
      expect(await form.findByText('Recipient metadata value for "note" is longer than 100 characters')).toBeTruthy();
      expect(page.writes()).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
