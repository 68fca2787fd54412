import { describe, expect, it } from "vitest";
import { csvResponse } from "@/lib/server/lists/csv-response";

/** Rows in batches, as an export yields them: a page where nothing matched is an empty batch. */
async function* batches(...list: string[][][]) {
  for (const batch of list) yield batch;
}

describe("a streamed CSV export", () => {
  it("completes past batches without rows: the first, the middle and the last page matched nothing", async () => {
    const rows = batches([], [["a", "1"]], [], [], [["b", "2"]], []);
    const res = await csvResponse("orders", ["name", "n"], rows);
    // The whole file arrives and the stream ends: an empty batch once stopped it, the download hanging.
    expect(await res.text()).toBe("name,n\r\na,1\r\nb,2\r\n");
  }, 5_000);

  it("a file of only empty batches is the header, complete", async () => {
    const res = await csvResponse("transfers", ["id"], batches([], [], []));
    expect(await res.text()).toBe("id\r\n");
  }, 5_000);

  it("pulls a batch only as the download reads: one service page in memory at a time", async () => {
    const pulled: number[] = [];
    async function* pages() {
      for (let i = 1; i <= 3; i++) {
        pulled.push(i);
        yield [[`row${i}`]];
      }
    }
    const res = await csvResponse("orders", ["x"], pages());
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("x\r\nrow1\r\n");
    expect(pulled).toEqual([1]);
    let rest = "";
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += decoder.decode(step.value);
    expect(rest).toBe("row2\r\nrow3\r\n");
  }, 5_000);
});
