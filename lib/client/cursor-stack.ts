/**
 * Server cursor pagination as a stack: the service hands out only "next" cursors, so
 * "previous" pops back to the cursor that loaded the earlier page.
 */
export interface CursorPage {
  /** The cursor that loads this page; undefined for the first page. */
  cursor: string | undefined;
  /** Row keys already shown on the page before (a transfer split across two pages is shown once). */
  carry: readonly string[];
}

export type CursorStack = readonly CursorPage[];

export const firstPage = (): CursorStack => [{ cursor: undefined, carry: [] }];

export const currentPage = (stack: CursorStack): CursorPage => stack[stack.length - 1] ?? firstPage()[0]!;

/** Moves to the page `cursor` loads; an empty cursor means there is no next page. */
export function pushPage(
  stack: CursorStack,
  cursor: string | null | undefined,
  carry: readonly string[] = [],
): CursorStack {
  return cursor ? [...stack, { cursor, carry }] : stack;
}

/** Back to the page before; the first page stays. */
export const popPage = (stack: CursorStack): CursorStack => (stack.length > 1 ? stack.slice(0, -1) : stack);
