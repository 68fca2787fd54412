import { eventually } from "./eventually";

/** Who reads the book: a signed-in client of the dashboard (test/support/app-server.ts's signIn). */
interface Reader {
  call(method: string, path: string): Promise<{ status: number; body: unknown }>;
}

/**
 * Until the market maker's asks are on `market`'s book, read through the dashboard. The service
 * refuses a market buy while no one sells, and the market maker quotes a second after the
 * runtime starts: a test that trades at once would meet a 403 (market conditions).
 * Plain values, no vitest: the desk's seed waits with it too.
 */
export async function untilQuoted(reader: Reader, market: string): Promise<void> {
  await eventually(
    async () => {
      const book = await reader.call("GET", `/api/v2/markets/${market}/order-book`);
      return book.status === 200 && (book.body as { asks?: unknown[] }).asks?.length ? true : undefined;
    },
    15_000,
    `the market maker's asks on ${market}`,
  );
}
