import { describe, expect, it } from "vitest";
import {
  BATCH_MAX_ROWS,
  BATCH_REF_ID_MAX_CHARS,
  batchRefIds,
  batchTotals,
  defaultRowRefId,
  readBatchCsv,
  readBatchJson,
  type BatchError,
  type BatchRead,
} from "@/lib/shared/batch-file";
import { transferDefaults, transferResolver, type TransferValues } from "@/components/transfers/transfer-form-values";
import { DECIMAL_PROBLEM_TEXT } from "@/lib/spec/decimal";
import { REF_ID_MAX_CHARS } from "@/lib/spec/limits";

const profiles = [
  { id: "p-treasury", nickname: "Treasury" },
  { id: "p-ops", nickname: "Operations reserve" },
  { id: "p-fx", nickname: "FX desk" },
];
const HEADER = "from_profile,to_profile,asset,amount,ref_id,note";
const bytes = (text: string) => new TextEncoder().encode(text);
const csv = (text: string, ref_id = "batch-7") => readBatchCsv(bytes(text), { ref_id, profiles });
const lines = (...rows: string[]) => rows.map((r) => `${r}\r\n`).join("");
const json = (body: unknown) => readBatchJson(body, { profiles });

function rowsOf(read: BatchRead) {
  if (!read.ok) throw new Error(`refused: ${JSON.stringify(read.errors)}`);
  return read.rows;
}
function errorsOf(read: BatchRead): BatchError[] {
  if (read.ok) throw new Error("accepted");
  return read.errors;
}
/** The only error, for what refuses the file as a whole. */
function onlyError(read: BatchRead): BatchError {
  const errors = errorsOf(read);
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

describe("a CSV batch that holds", () => {
  it("reads profiles by nickname (any case, trimmed) or id, grouped amounts, notes and quoted cells", () => {
    const file = lines(
      HEADER,
      ' treasury ,OPERATIONS RESERVE,USD,"1,250.00",pay-1,"payroll, November"',
      'p-ops,FX desk,BTC,0.5,,"said ""now"""',
    );
    expect(rowsOf(csv(file))).toEqual([
      {
        row: 1,
        from_profile_id: "p-treasury",
        to_profile_id: "p-ops",
        asset: "USD",
        amount: "1250.00",
        ref_id: "pay-1",
        metadata: { note: "payroll, November" },
      },
      {
        row: 2,
        from_profile_id: "p-ops",
        to_profile_id: "p-fx",
        asset: "BTC",
        amount: "0.5",
        ref_id: "batch-7-2",
        metadata: { note: 'said "now"' },
      },
    ]);
  });

  it("takes the columns in any order and any case, with ref_id and note left out", () => {
    const rows = rowsOf(csv(lines("Amount,ASSET, To_Profile ,from_profile", '"1,000,000.50",USD,Treasury,FX desk')));
    expect(rows).toEqual([
      {
        row: 1,
        from_profile_id: "p-fx",
        to_profile_id: "p-treasury",
        asset: "USD",
        amount: "1000000.50",
        ref_id: "batch-7-1",
      },
    ]);
  });

  it("drops the UTF-8 byte-order mark Excel writes, and ignores blank lines and empty rows at the end", () => {
    const file = `\uFEFF${lines(HEADER, "Treasury,FX desk,USD,5,,")}\r\n\r\n,,,,,\r\n  \n`;
    expect(rowsOf(csv(file)).map((r) => r.ref_id)).toEqual(["batch-7-1"]);
  });

  it("reads LF line breaks, and a last row with no line break", () => {
    const file = `${HEADER}\nTreasury,FX desk,USD,5,,\nFX desk,Treasury,USD,6,,`;
    expect(rowsOf(csv(file)).map((r) => r.amount)).toEqual(["5", "6"]);
  });

  it(`holds ${BATCH_MAX_ROWS} rows`, () => {
    const rows = Array.from({ length: BATCH_MAX_ROWS }, () => "Treasury,FX desk,USD,1,,");
    expect(rowsOf(csv(lines(HEADER, ...rows)))).toHaveLength(BATCH_MAX_ROWS);
  });

  it("matches an id before a nickname, and refuses a nickname two profiles share", () => {
    const confusing = [...profiles, { id: "p-x", nickname: "p-ops" }, { id: "p-y", nickname: "fx DESK" }];
    const read = readBatchCsv(bytes(lines(HEADER, "p-ops,FX desk,USD,5,,")), { ref_id: "b", profiles: confusing });
    expect(onlyError(read)).toEqual({
      row: 1,
      field: "to_profile",
      message: 'To profile "FX desk" is the nickname of 2 profiles: write the id of the one meant',
    });
    expect(
      rowsOf(readBatchCsv(bytes(lines(HEADER, "p-ops,p-y,USD,5,,")), { ref_id: "b", profiles: confusing }))[0],
    ).toMatchObject({ from_profile_id: "p-ops", to_profile_id: "p-y" });
  });
});

describe("a CSV batch's rows, refused on their fields", () => {
  it("lists every bad field of every row, by row and in the columns' order", () => {
    const file = lines(
      HEADER,
      "Nobody,Treasury,usd,0,has space,",
      "Treasury,FX desk,USD,5,,",
      "Treasury,Treasury,USD,1e3,,",
    );
    expect(errorsOf(csv(file))).toEqual([
      {
        row: 1,
        field: "from_profile",
        message:
          'From profile "Nobody" is not one of the desk\'s profiles: write its nickname or id, such as "Treasury"',
      },
      {
        row: 1,
        field: "asset",
        message: "Asset must be an asset code of 2 to 12 capital letters or digits, such as USD or BTC",
      },
      { row: 1, field: "amount", message: DECIMAL_PROBLEM_TEXT.not_positive("Amount") },
      {
        row: 1,
        field: "ref_id",
        message: "Ref ID may contain only visible ASCII characters (letters, digits, punctuation), no spaces",
      },
      { row: 3, field: "to_profile", message: "To profile must differ from the from profile" },
      { row: 3, field: "amount", message: DECIMAL_PROBLEM_TEXT.format("Amount") },
    ]);
  });

  it("names the required cells left empty, as the form does", () => {
    expect(errorsOf(csv(lines(HEADER, ",,,,own-ref,")))).toEqual([
      { row: 1, field: "from_profile", message: "From profile is required" },
      { row: 1, field: "to_profile", message: "To profile is required" },
      { row: 1, field: "asset", message: "Asset is required" },
      { row: 1, field: "amount", message: "Amount is required" },
    ]);
  });

  it.each([
    ["-1", "format"],
    ["1.000,50", "format"],
    ["1,25", "format"],
    ["1e3", "format"],
    ["0.00", "not_positive"],
    [`1.${"1".repeat(19)}`, "fraction_digits"],
    ["1".repeat(21), "integer_digits"],
  ] as const)("refuses the amount %j with the form's words", (amount, problem) => {
    expect(onlyError(csv(lines(HEADER, `Treasury,FX desk,USD,"${amount}",,`)))).toEqual({
      row: 1,
      field: "amount",
      message: DECIMAL_PROBLEM_TEXT[problem]("Amount"),
    });
  });

  it("refuses a profile sending to itself, named by nickname on one side and id on the other", () => {
    expect(onlyError(csv(lines(HEADER, "treasury,p-treasury,USD,5,,")))).toEqual({
      row: 1,
      field: "to_profile",
      message: "To profile must differ from the from profile",
    });
  });

  it("refuses a note longer than metadata allows, on the note", () => {
    const error = onlyError(csv(lines(HEADER, `Treasury,FX desk,USD,5,,${"n".repeat(101)}`)));
    expect(error).toMatchObject({ row: 1, field: "note" });
    expect(error.message).toContain("longer than 100 characters");
  });

  it("refuses a ref_id longer than the limit", () => {
    const error = onlyError(csv(lines(HEADER, `Treasury,FX desk,USD,5,${"r".repeat(REF_ID_MAX_CHARS + 1)},`)));
    expect(error).toEqual({ row: 1, field: "ref_id", message: `Ref ID may be at most ${REF_ID_MAX_CHARS} characters` });
  });

  it("refuses two rows with one ref_id, naming both on each", () => {
    const file = lines(
      HEADER,
      "Treasury,FX desk,USD,5,dup,",
      "Treasury,FX desk,USD,6,ok,",
      "Treasury,FX desk,USD,7, dup ,",
    );
    const message = 'Ref ID "dup" is used by rows 1 and 3: each transfer needs a ref ID of its own';
    expect(errorsOf(csv(file))).toEqual([
      { row: 1, field: "ref_id", message },
      { row: 3, field: "ref_id", message },
    ]);
  });

  it("refuses a ref_id that is another row's default, saying so", () => {
    const file = lines(HEADER, "Treasury,FX desk,USD,5,batch-7-2,", "Treasury,FX desk,USD,6,,");
    expect(errorsOf(csv(file))).toEqual([
      { row: 1, field: "ref_id", message: expect.stringMatching(/^Ref ID "batch-7-2" is used by rows 1 and 2/) },
      {
        row: 2,
        field: "ref_id",
        message: expect.stringContaining("(made for this row from the batch's ref ID) is used by rows 1 and 2"),
      },
    ]);
  });

  it("refuses a row with too few or too many cells, saying a comma must be quoted", () => {
    const file = lines("from_profile,to_profile,asset,amount", "Treasury,FX desk,USD,1,250.00", "Treasury,FX desk,USD");
    expect(errorsOf(csv(file))).toEqual([
      {
        row: 1,
        field: "row",
        message: expect.stringMatching(/^This row has 5 cells and the header 4 columns: .*double quotes/),
      },
      { row: 2, field: "row", message: expect.stringMatching(/^This row has 3 cells and the header 4 columns/) },
    ]);
  });

  it("refuses a blank row between others", () => {
    const file = lines(HEADER, "Treasury,FX desk,USD,5,,", "", "Treasury,FX desk,USD,6,,");
    expect(onlyError(csv(file))).toEqual({
      row: 2,
      field: "row",
      message: "This row is blank: delete it, or fill it in",
    });
  });

  it("refuses a quoted cell never closed, and text after a closing quote, naming the row", () => {
    expect(onlyError(csv(lines(HEADER, "Treasury,FX desk,USD,5,,", 'Treasury,FX desk,USD,"5,,')))).toMatchObject({
      row: 2,
      field: "file",
      message: expect.stringContaining("never closed"),
    });
    expect(onlyError(csv(lines(HEADER, 'Treasury,FX desk,USD,"5"0,,')))).toMatchObject({ row: 1, field: "file" });
  });
});

describe("a CSV file refused as a whole, with one clear error", () => {
  it.each([
    ["UTF-16", [0xff, 0xfe, 0x66, 0x00]],
    ["UTF-16", [0xfe, 0xff, 0x00, 0x66]],
    ["UTF-32", [0xff, 0xfe, 0x00, 0x00, 0x66, 0, 0, 0]],
    ["UTF-32", [0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x66]],
  ])("refuses a %s byte-order mark", (encoding, start) => {
    const error = onlyError(readBatchCsv(new Uint8Array(start), { ref_id: "b", profiles }));
    expect(error).toEqual({
      row: 0,
      field: "file",
      message: `The file is ${encoding} text (it starts with a ${encoding} byte-order mark): save it as "CSV UTF-8" (in Excel: File, Save As, CSV UTF-8)`,
    });
  });

  it("refuses a file that is not UTF-8 (Latin-1's é)", () => {
    const latin1 = new Uint8Array([
      ...bytes(`${HEADER}
Treasury,FX desk,USD,5,,caf`),
      0xe9,
      0x0d,
      0x0a,
    ]);
    expect(onlyError(readBatchCsv(latin1, { ref_id: "b", profiles })).message).toMatch(/^The file is not UTF-8 text/);
  });

  it("refuses UTF-16 text without a byte-order mark (NUL characters)", () => {
    const utf16 = new Uint8Array([...bytes(HEADER)].flatMap((b) => [b, 0]));
    expect(onlyError(readBatchCsv(utf16.buffer, { ref_id: "b", profiles })).message).toMatch(/NUL characters/);
  });

  it("refuses a byte-order mark past the start, naming its row", () => {
    const joined = `\uFEFF${lines(HEADER, "Treasury,FX desk,USD,5,,")}\uFEFF${lines("Treasury,FX desk,USD,6,,")}`;
    expect(onlyError(csv(joined))).toMatchObject({
      row: 2,
      field: "file",
      message: expect.stringContaining("U+FEFF) in row 2"),
    });
    expect(onlyError(csv(`\uFEFF\uFEFF${lines(HEADER, "Treasury,FX desk,USD,5,,")}`)).message).toContain(
      "in its header",
    );
  });

  it.each([
    ["nothing", ""],
    ["a byte-order mark alone", "\uFEFF"],
    ["blank lines", "\r\n \r\n\n"],
  ])("refuses an empty file (%s)", (_, text) => {
    expect(onlyError(csv(text)).message).toMatch(/^The file is empty: it needs a header row/);
  });

  it("refuses a header with no rows", () => {
    expect(onlyError(csv(lines(HEADER, "", ",,,,,")))).toEqual({
      row: 0,
      field: "file",
      message: "The file has a header and no transfers: add a row for each transfer",
    });
  });

  it(`refuses more than ${BATCH_MAX_ROWS} rows, naming the first row over`, () => {
    const rows = Array.from({ length: BATCH_MAX_ROWS + 2 }, () => "Nobody,Nobody,??,x,,");
    expect(onlyError(csv(lines(HEADER, ...rows)))).toEqual({
      row: BATCH_MAX_ROWS + 1,
      field: "file",
      message: "The batch has 1,002 transfers and may have at most 1,000: split it into batches of 1,000 or fewer",
    });
  });

  it("refuses every unknown, repeated or nameless column of the header, left to right, then each missing one", () => {
    expect(errorsOf(csv(lines("From_Profile,asset,amount,memo,asset,", "a,b,c,d,e,f")))).toEqual([
      {
        row: 0,
        field: "memo",
        message:
          'Unknown column "memo": the columns are from_profile, to_profile, asset and amount, and optionally ref_id and note',
      },
      { row: 0, field: "asset", message: "The header has two asset columns: keep one" },
      { row: 0, field: "column 6", message: expect.stringMatching(/^Column 6 has no name: the columns are/) },
      {
        row: 0,
        field: "to_profile",
        message: expect.stringMatching(/^The header has no to_profile column: the columns are from_profile/),
      },
    ]);
  });

  it("refuses a file separated by semicolons or tabs, saying so", () => {
    expect(onlyError(csv(lines("from_profile;to_profile;asset;amount", "a;b;USD;5"))).message).toMatch(
      /^The columns are separated by semicolons/,
    );
    expect(onlyError(csv(lines("from_profile\tto_profile\tasset\tamount"))).message).toMatch(
      /^The columns are separated by tabs/,
    );
  });
});

describe("the batch's own ref_id", () => {
  it("gives each row without one `<ref_id>-<row>`", () => {
    expect(defaultRowRefId("payroll-11", 12)).toBe("payroll-11-12");
    const rows = rowsOf(
      csv(
        lines(HEADER, "Treasury,FX desk,USD,5,,", "Treasury,FX desk,USD,5,mine,", "Treasury,FX desk,USD,5,,"),
        "payroll-11",
      ),
    );
    expect(batchRefIds(rows)).toEqual(["payroll-11-1", "mine", "payroll-11-3"]);
  });

  it(`fits every row's default in ${REF_ID_MAX_CHARS} characters, or is refused`, () => {
    const file = lines(HEADER, "Treasury,FX desk,USD,5,,");
    const longest = "r".repeat(BATCH_REF_ID_MAX_CHARS);
    expect(defaultRowRefId(longest, BATCH_MAX_ROWS)).toHaveLength(REF_ID_MAX_CHARS);
    expect(rowsOf(csv(file, longest))[0]!.ref_id).toBe(`${longest}-1`);
    const error = onlyError(csv(file, `${longest}r`));
    expect(error).toMatchObject({ row: 0, field: "ref_id" });
    expect(error.message).toMatch(new RegExp(`^A batch's Ref ID may be at most ${BATCH_REF_ID_MAX_CHARS} characters`));
  });

  it("is checked with refIdSchema's rules", () => {
    expect(onlyError(csv(lines(HEADER, "Treasury,FX desk,USD,5,own,"), "has space"))).toEqual({
      row: 0,
      field: "ref_id",
      message: "Ref ID may contain only visible ASCII characters (letters, digits, punctuation), no spaces",
    });
  });
});

describe("a JSON batch", () => {
  const transfer = { from_profile_id: "p-treasury", to_profile_id: "p-ops", asset: "USD", amount: "1250.00" };

  it("reads transfers[0] as row 1, with ref_ids and metadata, and a grouped amount as the form does", () => {
    const read = json({
      ref_id: "j-1",
      transfers: [transfer, { ...transfer, amount: "1,000.5", ref_id: "own", metadata: { desk: "fx" } }],
    });
    expect(read).toEqual({
      ok: true,
      ref_id: "j-1",
      rows: [
        { row: 1, ...transfer, ref_id: "j-1-1" },
        { row: 2, ...transfer, amount: "1000.5", ref_id: "own", metadata: { desk: "fx" } },
      ],
    });
  });

  it("lists every bad field of every row under its JSON name", () => {
    const read = json({
      ref_id: "j-1",
      transfers: [
        { ...transfer, amount: 5, to_profile_id: "p-nobody", recipient_metadata: {} },
        transfer,
        { ...transfer, from_profile_id: "p-ops", metadata: { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6", g: "7" } },
        "not a transfer",
      ],
    });
    expect(errorsOf(read)).toEqual([
      {
        row: 1,
        field: "to_profile_id",
        message: 'To profile "p-nobody" is not one of the desk\'s profiles: use its id, such as "p-treasury"',
      },
      {
        row: 1,
        field: "amount",
        message: 'Amount must be a decimal written as a string, such as "1250.50" (a JSON number loses precision)',
      },
      {
        row: 1,
        field: "recipient_metadata",
        message: expect.stringMatching(/^Unknown field "recipient_metadata": a transfer has from_profile_id/),
      },
      { row: 3, field: "to_profile_id", message: "To profile must differ from the from profile" },
      { row: 3, field: "metadata", message: "Metadata may have at most 6 pairs (has 7)" },
      { row: 4, field: "row", message: expect.stringMatching(/^Each transfer must be an object such as/) },
    ]);
  });

  it("refuses two transfers with one ref_id, a default one included", () => {
    const read = json({ ref_id: "j", transfers: [transfer, { ...transfer, ref_id: "j-1" }] });
    expect(errorsOf(read).map((e) => [e.row, e.field])).toEqual([
      [1, "ref_id"],
      [2, "ref_id"],
    ]);
  });

  it.each([
    ["a list", [], "body", /^The batch must be a JSON object/],
    ["null", null, "body", /^The batch must be a JSON object/],
    ["no transfers", { ref_id: "j" }, "transfers", /^Transfers is required/],
    ["transfers not a list", { ref_id: "j", transfers: {} }, "transfers", /^Transfers must be a list/],
    ["an empty list", { ref_id: "j", transfers: [] }, "transfers", /^The batch has no transfers/],
  ])("refuses %s", (_, body, field, message) => {
    expect(onlyError(json(body))).toEqual({ row: 0, field, message: expect.stringMatching(message) });
  });

  it("refuses a missing or bad batch ref_id and unknown fields, and still checks every row", () => {
    expect(errorsOf(json({ transfers: [{ ...transfer, amount: "0" }], extra: true }))).toEqual([
      { row: 0, field: "ref_id", message: "Ref ID is required" },
      { row: 0, field: "extra", message: 'Unknown field "extra": a batch has ref_id and transfers' },
      { row: 1, field: "amount", message: DECIMAL_PROBLEM_TEXT.not_positive("Amount") },
    ]);
  });

  it(`refuses more than ${BATCH_MAX_ROWS} transfers, naming the first one over, and nothing else`, () => {
    const transfers = Array.from({ length: BATCH_MAX_ROWS + 1 }, () => ({}));
    expect(onlyError(json({ ref_id: "has space", transfers }))).toMatchObject({
      row: BATCH_MAX_ROWS + 1,
      field: "transfers",
    });
  });

  it("refuses an id that is not the desk's, and does not read nicknames", () => {
    expect(errorsOf(json({ ref_id: "j", transfers: [{ ...transfer, from_profile_id: "Treasury" }] }))).toEqual([
      { row: 1, field: "from_profile_id", message: expect.stringContaining('From profile "Treasury" is not one of') },
    ]);
  });
});

describe("the batch's totals", () => {
  it("sums each asset, and each sender's outgoing per asset, exactly as decimal strings, in a fixed order", () => {
    const rows = [
      { from_profile_id: "p-ops", asset: "USD", amount: "0.1" },
      { from_profile_id: "p-ops", asset: "USD", amount: "0.2" },
      { from_profile_id: "p-fx", asset: "USD", amount: "99999999999999999999.999999999999999999" },
      { from_profile_id: "p-ops", asset: "BTC", amount: "0.00000001" },
      { from_profile_id: "p-fx", asset: "BTC", amount: "1" },
    ];
    expect(batchTotals(rows)).toEqual({
      assets: [
        { asset: "BTC", total: "1.00000001" },
        { asset: "USD", total: "100000000000000000000.299999999999999999" },
      ],
      outgoing: [
        { profile_id: "p-fx", asset: "BTC", total: "1" },
        { profile_id: "p-fx", asset: "USD", total: "99999999999999999999.999999999999999999" },
        { profile_id: "p-ops", asset: "BTC", total: "0.00000001" },
        { profile_id: "p-ops", asset: "USD", total: "0.3" },
      ],
    });
  });

  it("is empty for no rows", () => {
    expect(batchTotals([])).toEqual({ assets: [], outgoing: [] });
  });
});

describe("a row is refused in the transfer form's words", () => {
  const options = {
    fields: {},
    shouldUseNativeValidation: false,
    criteriaMode: "firstError",
    names: undefined,
  } as never;
  /** The form's first message on `field`, however deep react-hook-form put it (metadata.note). */
  async function formMessage(values: Partial<TransferValues>, field: keyof TransferValues) {
    const filled = {
      ...transferDefaults(),
      from_profile_id: "p-treasury",
      to_profile_id: "p-ops",
      amount: "5",
      ...values,
    };
    const { errors } = await transferResolver(filled, undefined, options);
    return /"message":"((?:[^"\\]|\\.)*)"/.exec(JSON.stringify(errors[field]))?.[1]?.replaceAll('\\"', '"');
  }
  const cells = { from: "p-treasury", to: "p-ops", asset: "USD", amount: "5", ref: "", note: "" };
  const row = (c: typeof cells) => `${c.from},${c.to},${c.asset},"${c.amount}",${c.ref},${c.note}`;

  it.each([
    ["amount", { amount: "-1" }, { amount: "-1" }],
    ["amount", { amount: "0" }, { amount: "0" }],
    ["amount", { amount: "1.000,50" }, { amount: "1.000,50" }],
    ["amount", { amount: "12,34,567" }, { amount: "12,34,567" }],
    ["amount", { amount: "" }, { amount: "" }],
    ["asset", { asset: "usd" }, { asset: "usd" }],
    ["asset", { asset: "" }, { asset: "" }],
    ["ref_id", { ref: "has space" }, { ref_id: "has space" }],
    ["ref_id", { ref: "r".repeat(REF_ID_MAX_CHARS + 1) }, { ref_id: "r".repeat(REF_ID_MAX_CHARS + 1) }],
    ["to_profile_id", { to: "p-treasury" }, { to_profile_id: "p-treasury" }],
    ["metadata", { note: "n".repeat(101) }, { metadata: [{ key: "note", value: "n".repeat(101) }] }],
  ] as const)("%s: %j", async (field, csvCells, formValues) => {
    const error = onlyError(csv(lines(HEADER, row({ ...cells, ...csvCells }))));
    const expected = await formMessage(formValues as Partial<TransferValues>, field);
    expect(expected).toBeTruthy();
    expect(error.message).toBe(expected);
  });
});
