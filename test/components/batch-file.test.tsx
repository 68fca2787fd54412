// @vitest-environment jsdom
import { File as NodeFile } from "node:buffer";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BatchesDesk } from "@/components/batches/batches-desk";
import { BATCH_MAX_ROWS } from "@/lib/shared/batch-rows";
import { renderAs } from "../support/components";
import { SETTLEMENT, TREASURY } from "../support/requests";

/**
 * A batch's file refused (issue 27): each refused field in place in the preview, with its
 * message, and what is wrong with the file as a whole above it; Submit batch stops at the form
 * and nothing is sent. The Batches page as ops open it, the preview the in-process back end's.
 * The page at each width, and batches sent, are the e2e project's (e2e/batches.test.ts).
 */

const CSV_HEADER = "from_profile,to_profile,asset,amount,ref_id,note";
const csv = (...rows: string[]) => [CSV_HEADER, ...rows].join("\n");
/** A chosen file: Node's, as jsdom's File cannot give its bytes (no arrayBuffer()); a browser's can. */
const chosenFile = (bytes: Buffer, name: string) =>
  new NodeFile([bytes], name, { type: "text/csv" }) as unknown as File;

describe("the Batches page's file", () => {
  it("shows each refused field of a bad file in place, with its message, and sends nothing", async () => {
    const page = await renderAs(
      "ops",
      <BatchesDesk
        me={{ email: "ops@example.com", admin: false, canCreate: true }}
        openId={null}
        compose
        note={null}
        controlsLine={null}
      />,
    );
    try {
      const user = userEvent.setup();
      const form = within(await screen.findByRole("form", { name: "Batch of transfers" }));
      const text = form.getByLabelText("Transfers (CSV)");
      /** The file pasted in place of what the box held. */
      const paste = async (file: string) => {
        await user.clear(text);
        await user.click(text);
        await user.paste(file);
      };
      const state = () => screen.getByTestId("preview-state").getAttribute("data-state");
      /** Waits until the preview answered the batch as it is now. */
      const previewed = (expected: "refused" | "ready") => waitFor(() => expect(state()).toBe(expected));
      const table = () =>
        screen.getByText("Transfers of the batch, as read from the file", { selector: "caption" }).closest("table")!;
      /** The message of a refused cell: it is marked aria-invalid and described by the message. */
      const refusal = async (row: number, field: string) => {
        const cell = () => table().querySelector(`tr[data-row="${row}"] td[data-field="${field}"]`)!;
        await waitFor(() => expect(cell().getAttribute("aria-invalid")).toBe("true"));
        return document.getElementById(cell().getAttribute("aria-describedby")!)?.textContent;
      };
      const fileErrors = () => screen.getByTestId("file-errors").textContent;

      await paste(
        csv(
          "Treasury,Treasury,USD,10,,self-send",
          "Treasury,Settlement,USD,11,same-ref,",
          "Treasury,Settlement,USD,12,same-ref,",
          "Treasury,Settlement,USD,abc,,",
          "Nobody,Settlement,USD,13,,",
        ),
      );
      await previewed("refused");
      expect(await refusal(1, "to")).toBe("To profile must differ from the from profile");
      for (const row of [2, 3]) {
        expect(await refusal(row, "ref_id")).toBe(
          'Ref ID "same-ref" is used by rows 2 and 3: each transfer needs a ref ID of its own',
        );
      }
      expect(await refusal(4, "amount")).toMatch(/^Amount /);
      expect(await refusal(5, "from")).toMatch(/^From profile "Nobody" is not one of the desk's profiles/);
      // Cells that hold are not marked.
      expect(table().querySelector('tr[data-row="1"] td[data-field="from"]')!.getAttribute("aria-invalid")).toBeNull();

      // Submit batch stops at the form: the file is refused.
      await user.click(form.getByRole("button", { name: "Submit batch" }));
      expect(await form.findByText(/^The batch is refused: fix the \d+ problems shown in the preview$/)).toBeTruthy();
      expect(form.queryByTestId("review")).toBeNull();

      // A ref_id another transfer already has: refused on its row.
      const used = `used-${Date.now()}`;
      const single = await page.d.as.ops.call("POST", "/api/v2/transfer/internal", {
        from_profile_id: TREASURY,
        to_profile_id: SETTLEMENT,
        asset: "USD",
        amount: "1.00",
        ref_id: used,
      });
      expect(single.status).toBe(200);
      await paste(csv(`Treasury,Settlement,USD,2,${used},`));
      await previewed("refused");
      expect(await refusal(1, "ref_id")).toMatch(/already used by another transfer/);

      // A byte-order mark inside the file (two files joined): said above the table.
      await paste(`${csv("Treasury,Settlement,USD,2,,")}\n\uFEFFTreasury,Settlement,USD,3,,`);
      await previewed("refused");
      await waitFor(() => expect(fileErrors()).toMatch(/byte-order mark \(U\+FEFF\) in row 2/));

      // More rows than a batch may have: said above the table.
      const many = Array.from({ length: BATCH_MAX_ROWS + 1 }, (_, i) => `Treasury,Settlement,USD,1.${i % 100},,`);
      await paste(csv(...many));
      await previewed("refused");
      await waitFor(() => expect(fileErrors()).toMatch(/at most 1,000/));

      // A file saved as UTF-16 (its byte-order mark), and one that is not UTF-8 at all.
      const chooser = form.getByLabelText(/file/i, { selector: 'input[type="file"]' });
      const utf16 = Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(csv("Treasury,Settlement,USD,1,,"), "utf16le"),
      ]);
      await user.upload(chooser, chosenFile(utf16, "utf16.csv"));
      await waitFor(() => expect(form.getByTestId("batch-source").textContent).toBe("File utf16.csv"));
      await waitFor(() => expect(fileErrors()).toMatch(/UTF-16/));
      const latin1 = Buffer.from(csv("Treasury,Settlement,USD,1,,Trésor"), "latin1");
      await user.upload(chooser, chosenFile(latin1, "latin1.csv"));
      await waitFor(() => expect(form.getByTestId("batch-source").textContent).toBe("File latin1.csv"));
      await waitFor(() => expect(fileErrors()).toMatch(/not UTF-8/));
      expect(page.writes().filter((w) => w === "POST /api/batches")).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
