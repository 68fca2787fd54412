import "server-only";
import { csvLine } from "@/lib/shared/csv";

/** Records an export reads from the service at most; past it the CSV's last line says it stopped. */
export const EXPORT_SCAN_CAP = 100_000;

/** The last line of an export cut at the cap, in words, so the file never passes for complete. */
export const stoppedLine = (scanned: number, what: string): string[] => [
  `Export stopped after reading ${scanned} ${what} from the service (at most ${EXPORT_SCAN_CAP}); narrow the filters to export the rest.`,
];

/** Rows a CSV export writes, a batch at a time, as the back end reads them. */
export type CsvRows = AsyncIterator<readonly (readonly string[])[], unknown>;

/**
 * A CSV download streamed as its rows are read: nothing is held beyond one batch, so an export
 * of every matching record costs the memory of one service page. The first batch is read before
 * answering, so a refused filter or an unreachable service is still an ordinary problem response;
 * a failure later cuts the download short (the browser reports it failed) rather than ending it
 * as if it were complete.
 */
export async function csvResponse(name: string, header: readonly string[], rows: CsvRows): Promise<Response> {
  const encoder = new TextEncoder();
  const first = await rows.next();
  let pending: string | undefined = csvLine(header) + linesOf(first);
  const done = Boolean(first.done);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending !== undefined) {
        controller.enqueue(encoder.encode(pending));
        pending = undefined;
        if (done) controller.close();
        return;
      }
      // A pull must enqueue or close: a stream whose pull enqueued nothing is not pulled again,
      // so a batch without rows (a page where nothing matched) is passed over, not answered.
      for (;;) {
        const step = await rows.next();
        const text = linesOf(step);
        if (text) controller.enqueue(encoder.encode(text));
        if (step.done) {
          controller.close();
          return;
        }
        if (text) return;
      }
    },
    async cancel() {
      await rows.return?.();
    },
  });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

const linesOf = (step: IteratorResult<readonly (readonly string[])[], unknown>): string =>
  step.done ? "" : step.value.map(csvLine).join("");
