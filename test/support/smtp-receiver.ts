import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server for tests (the `smtp-server` package), on 127.0.0.1 without TLS or a login:
 * it keeps every message it accepts, read just enough to assert on (its recipients, the headers
 * that matter, the plain-text body). It can be stopped and started again on the same port, as a
 * mail server that goes away and comes back.
 */

export interface Mail {
  /** Who the message was delivered to (the envelope's RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  messageId: string;
  headers: Record<string, string>;
  /** The body, decoded. */
  text: string;
}

export interface SmtpReceiver {
  /** smtp://127.0.0.1:<port>: the dashboard's SMTP_URL. */
  url: string;
  received: Mail[];
  /** Stops listening: a send meets a refused connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function smtpReceiver(): Promise<SmtpReceiver> {
  const received: Mail[] = [];
  const make = () =>
    new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          received.push({ ...parseMail(Buffer.concat(chunks).toString("utf8")), to });
          callback();
        });
      },
    });
  let server = make();
  let running = true;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const stop = async () => {
    if (!running) return;
    running = false;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop,
    async start() {
      if (running) return;
      server = make();
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      running = true;
    },
    close: stop,
  };
}

/** The message's headers (unfolded, names in lower case) and its body, decoded from quoted-printable or base64. */
export function parseMail(raw: string): Omit<Mail, "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? Buffer.from(
          body
            .replace(/=\r\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          "latin1",
        ).toString("utf8")
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return {
    from: headers.from ?? "",
    subject: headers.subject ?? "",
    messageId: headers["message-id"] ?? "",
    headers,
    text: text.replace(/\r\n/g, "\n").replace(/\n$/, ""),
  };
}
