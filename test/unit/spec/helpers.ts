import { expect } from "vitest";
import * as z from "zod/mini";
import { fieldErrors, type FieldError } from "@/lib/spec";

/** Pinned clock for GTT rules. */
export const NOW = 1_800_000_000_000;

export function errorsOf(schema: z.core.$ZodType, input: unknown): FieldError[] {
  const result = z.safeParse(schema, input);
  return result.success ? [] : fieldErrors(result.error);
}

export function expectAccepted(schema: z.core.$ZodType, input: unknown): void {
  expect(errorsOf(schema, input)).toEqual([]);
}

/** Refused, with an error on `field` whose message matches `message`, and on no other field. */
export function expectRefused(schema: z.core.$ZodType, input: unknown, field: string, message?: RegExp): void {
  const errors = errorsOf(schema, input);
  expect(errors.map((e) => e.field)).toContain(field);
  expect(errors.filter((e) => e.field !== field)).toEqual([]);
  if (message) expect(errors.find((e) => e.field === field)?.message).toMatch(message);
}

export const chars = (n: number, c = "a"): string => c.repeat(n);
export const pairs = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, `value${i}`]));
