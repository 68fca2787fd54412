/**
 * JSON with object keys sorted at every depth: equal values give equal text, whatever order
 * their keys were written in. What the audit chain hashes, and how two requests are compared.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .filter((key) => object[key] !== undefined)
      .map((key) => [key, sorted(object[key])]),
  );
}
