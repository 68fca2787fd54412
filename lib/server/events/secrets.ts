import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@/lib/shared/webhooks";

/**
 * A webhook's signing secret: 24 random bytes, shown once as `whsec_<base64>` (the Standard
 * Webhooks form). It must be read again to sign, so it is kept sealed (AES-256-GCM) under a key
 * derived from the auth secret, which every instance of a deployment shares: a copy of the
 * database alone does not give it away.
 */

export const newWebhookSecret = (): string => WEBHOOK_SECRET_PREFIX + randomBytes(24).toString("base64");

const keyOf = (authSecret: string) =>
  Buffer.from(hkdfSync("sha256", authSecret, "treasury-dashboard", "webhook-secrets", 32));

export function sealSecret(authSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(authSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function openSecret(authSecret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("a webhook secret is sealed in an unknown form");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(authSecret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
