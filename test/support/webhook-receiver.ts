import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local receiver of webhooks for tests: it keeps every request it gets (headers and the exact
 * body) and answers each with the next of the answers it was given (the last one repeating).
 */

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (a receiver that hangs). */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The answers to give from now on, in order; the last one repeats. */
  answer(...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Answer[] = [{ status: 200 }];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "/" });
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (next.hang) return;
      res.writeHead(next.status, next.headers ?? {});
      res.end(next.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (...next) => {
      answers = next.length > 0 ? next : [{ status: 200 }];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
