import { amountIfSet } from "@/lib/spec/decimal";
import type { BookLevel } from "./service-shapes";

/**
 * A ticker level's price, or undefined when the service has none: the level null or left out
 * (an empty side, no trade yet), or its price "0" or "".
 */
export const levelPrice = (level: Partial<BookLevel> | null | undefined): string | undefined =>
  amountIfSet(level?.price);
