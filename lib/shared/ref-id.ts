/** A fresh idempotence key, made by the forms for each new create and by the back end when none was sent. */
export const newRefId = (): string => `dash-${crypto.randomUUID()}`;
