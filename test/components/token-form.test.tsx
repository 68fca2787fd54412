// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { TokenForm } from "@/components/tokens/token-form";
import { renderAs } from "../support/components";

/**
 * The new API token form (issue 28): the scopes a role cannot use offered disabled, with why, and
 * each rule refused at its field with nothing sent. The form as /tokens renders it for a trader,
 * against the in-process back end. Making and revoking tokens through the page, at each width,
 * is the e2e project's (e2e/tokens.test.ts).
 */

describe("the new API token form", () => {
  it("refuses a form with no scope, 0 days or 91 days at the fields, sending nothing; scopes the role cannot use are disabled", async () => {
    const page = await renderAs("trader", <TokenForm role="trader" />);
    try {
      const user = userEvent.setup();
      const form = within(await screen.findByRole("form", { name: "New API token" }));
      const input = (label: string) =>
        form.getByLabelText(label, { exact: true, selector: "input" }) as HTMLInputElement;
      const scope = (name: string) =>
        form.getByRole("checkbox", { name: new RegExp(`^${name}\\b`) }) as HTMLInputElement;
      /** The message under the input, once it is marked invalid (its aria-describedby's last). */
      const errorOf = async (label: string) => {
        await waitFor(() => expect(input(label).getAttribute("aria-invalid")).toBe("true"));
        return document.getElementById(input(label).getAttribute("aria-describedby")!.split(" ").at(-1)!)?.textContent;
      };
      const fill = async (label: string, text: string) => {
        await user.clear(input(label));
        await user.type(input(label), text);
      };
      const create = () => user.click(form.getByRole("button", { name: "Create token" }));

      // A trader places orders but makes no transfers: those scopes are offered disabled, with why.
      expect(scope("read").disabled).toBe(false);
      expect(scope("trade").disabled).toBe(false);
      for (const name of ["transfer", "batch"]) expect(scope(name).disabled, name).toBe(true);
      expect(form.getAllByText(/not for your role \(trader\)/)).toHaveLength(2);
      expect(input("Expires in days").value).toBe("30");

      await fill("Name", "no scope");
      await user.click(scope("read"));
      await fill("Expires in days", "0");
      await create();
      const scopes = within(form.getByRole("group", { name: "Scopes" }));
      await waitFor(() =>
        expect(scopes.getByRole("alert").textContent).toBe(
          "Scopes must name at least one of read, trade, transfer, batch",
        ),
      );
      expect(await errorOf("Expires in days")).toBe("Expires in days must be at least 1");
      await fill("Expires in days", "91");
      await create();
      await waitFor(async () => expect(await errorOf("Expires in days")).toBe("Expires in days may be at most 90"));
      await fill("Name", "  ");
      await create();
      await waitFor(async () => expect(await errorOf("Name")).toBe("Name must not be empty"));
      expect(page.writes(), "a refused form sends nothing").toEqual([]);
    } finally {
      await page.close();
    }
  });
});
