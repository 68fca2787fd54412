// @vitest-environment jsdom
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { TransferForm } from "@/components/transfers/transfer-form";
import { field as fieldIn, loadedForm, refusalOf, renderAs, retype } from "../support/components";

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
      const form = await loadedForm("Internal transfer", "From profile");
      const field = (label: string) => fieldIn(form, label);
      const errorOf = (label: string) => refusalOf(form, label);
      const review = () => user.click(form.getByRole("button", { name: "Review transfer" }));
      const amount = (text: string) => retype(user, field("Amount"), text);

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
