import { createServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import {
  AddressRefused,
  allowedHosts,
  isForbiddenAddress,
  resolveWebhookAddress,
  type Lookup,
} from "@/lib/server/events/address-guard";
import { attemptDelivery } from "@/lib/server/events/deliver";
import { newWebhookSecret, openSecret, sealSecret } from "@/lib/server/events/secrets";
import { subscribes } from "@/lib/shared/webhooks";

/**
 * The pieces of a webhook's delivery that need no runtime: which addresses are never reached,
 * the resolution checked and pinned, one attempt's timeout, and the sealed secret.
 */

describe("the addresses a webhook never reaches", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.4.4",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::5",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "ff02::1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows the public %s",
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );
});

describe("resolving a webhook's host", () => {
  const none = allowedHosts(undefined);
  const lookupTo =
    (...addresses: string[]): Lookup =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("refuses a name when any address it resolves to is private: the one connected to is one checked", async () => {
    const url = new URL("https://hooks.example.com/x");
    await expect(resolveWebhookAddress(url, none, lookupTo("93.184.216.34", "10.0.0.1"))).rejects.toThrow(
      /hooks\.example\.com resolves to 10\.0\.0\.1/,
    );
    await expect(resolveWebhookAddress(url, none, lookupTo("93.184.216.34"))).resolves.toEqual({
      address: "93.184.216.34",
      family: 4,
    });
  });

  it("refuses a name that does not resolve, and http:// unless the host is allowed", async () => {
    const fails: Lookup = async () => {
      throw new Error("ENOTFOUND");
    };
    await expect(resolveWebhookAddress(new URL("https://nowhere.example/x"), none, fails)).rejects.toThrow(
      "does not resolve",
    );
    await expect(
      resolveWebhookAddress(new URL("http://hooks.example.com/x"), none, lookupTo("1.1.1.1")),
    ).rejects.toThrow(AddressRefused);
  });

  it("lets the hosts of WEBHOOK_ALLOW_HOSTS use http:// and private addresses, and no others", async () => {
    const allow = allowedHosts(" 127.0.0.1, Ledger.Internal ,[::1]");
    await expect(resolveWebhookAddress(new URL("http://127.0.0.1:8080/x"), allow)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(
      resolveWebhookAddress(new URL("http://ledger.internal/x"), allow, lookupTo("10.1.2.3")),
    ).resolves.toMatchObject({ address: "10.1.2.3" });
    await expect(resolveWebhookAddress(new URL("http://[::1]:9/x"), allow)).resolves.toMatchObject({ address: "::1" });
    await expect(resolveWebhookAddress(new URL("https://127.0.0.2/x"), allow)).rejects.toThrow(AddressRefused);
  });
});

describe("one attempt", () => {
  it("fails with no answer within its timeout, and never asks the system resolver", async () => {
    // A bare TCP listener that takes the connection and never answers (no HTTP server: the unit
    // project shares its process, where another file's server hooks may answer HTTP requests).
    const sockets: Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await attemptDelivery({
        // A name nothing resolves: the pinned address is used, not a lookup.
        url: new URL(`http://never-resolved.invalid:${port}/x`),
        address: { address: "127.0.0.1", family: 4 },
        headers: {},
        body: "{}",
        timeoutMs: 200,
      });
      expect(result).toEqual({ error: "no answer within 0.2 s" });
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});

describe("a webhook's secret", () => {
  it("is whsec_ and 24 random bytes, sealed so that only the auth secret opens it", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    const sealed = sealSecret("auth-secret-of-thirty-two-characters!", secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret("auth-secret-of-thirty-two-characters!", sealed)).toBe(secret);
    expect(() => openSecret("another-auth-secret-of-32-characters", sealed)).toThrow();
    // What it signs, the Standard Webhooks library verifies.
    const at = new Date();
    const signature = new Webhook(secret).sign("msg_1", at, "{}");
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    };
    expect(new Webhook(secret).verify("{}", headers)).toEqual({});
  });
});

describe("who receives an event", () => {
  it("a webhook of its type or of every type; never the dashboard's own events", () => {
    expect(subscribes(["order.filled"], "order.filled")).toBe(true);
    expect(subscribes(["order.filled"], "order.created")).toBe(false);
    expect(subscribes(["*"], "limit.refused")).toBe(true);
    expect(subscribes(["*"], "webhook.disabled")).toBe(false);
  });
});
