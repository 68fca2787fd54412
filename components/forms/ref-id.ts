/** A fresh idempotence key for the next create. */
export const newRefId = (): string => `dash-${crypto.randomUUID()}`;
