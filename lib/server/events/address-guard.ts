import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * No request forgery through a webhook (issue 30): the dashboard posts only where an admin could
 * have posted from outside. A URL must be https; its host must resolve only to public addresses
 * (not private, loopback, link-local, the cloud's metadata address, multicast or reserved), checked
 * when it is registered and again at each delivery, against the address then resolved, which the
 * delivery then connects to (deliver.ts), so a name that changes its answer in between
 * (DNS rebinding) still reaches only what was checked. Hosts named in WEBHOOK_ALLOW_HOSTS are
 * exempt from both rules: a deployment's own receivers, and the tests' loopback ones.
 */

const refused = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, and the metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  refused.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, AWS's IPv6 metadata address among them
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["2001:db8::", 32],
  ["100::", 64], // discard
] as const) {
  refused.addSubnet(net, bits, "ipv6");
}

/** An IPv4 address written inside an IPv6 one (::ffff:a.b.c.d, NAT64's 64:ff9b::a.b.c.d), else null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

/** Whether a webhook may never be sent to `address` (an IP literal). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return refused.check(inner, "ipv4");
  return refused.check(address, "ipv6");
}

export class AddressRefused extends Error {}

export interface AllowedHosts {
  allows(hostname: string): boolean;
}

/** WEBHOOK_ALLOW_HOSTS: host names (or addresses) exempt from the https and address rules. */
export function allowedHosts(list: string | undefined): AllowedHosts {
  const hosts = new Set(
    (list ?? "")
      .split(",")
      .map((h) => bare(h.trim()))
      .filter(Boolean),
  );
  return { allows: (hostname) => hosts.has(bare(hostname)) };
}

/** A host name as compared: lower case, an IPv6 address without its brackets. */
const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");

/** Why `url` may not be a webhook's, without resolving it; null when its form is fine. */
export function urlFormProblem(url: URL, allow: AllowedHosts): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "URL must start with https://";
  if (url.username || url.password) return "URL must not carry a user name or password";
  if (allow.allows(url.hostname)) return null;
  if (url.protocol !== "https:") return "URL must use https:// (http:// only to a host in WEBHOOK_ALLOW_HOSTS)";
  return null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * The address a delivery to `url` connects to: the first its host resolves to, once every one is
 * allowed. Throws AddressRefused naming the address, or when the host does not resolve.
 */
export async function resolveWebhookAddress(
  url: URL,
  allow: AllowedHosts,
  lookup: Lookup = systemLookup,
): Promise<ResolvedAddress> {
  const form = urlFormProblem(url, allow);
  if (form) throw new AddressRefused(form);
  const host = bare(url.hostname);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await lookup(host);
    } catch {
      throw new AddressRefused(`the host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new AddressRefused(`the host ${host} does not resolve`);
  if (!allow.allows(url.hostname)) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) {
      const named = bad.address === host ? host : `${host} resolves to ${bad.address}, which`;
      throw new AddressRefused(
        `${named} is a private, loopback, link-local or metadata address: webhooks go only to public addresses`,
      );
    }
  }
  return addresses[0]!;
}
