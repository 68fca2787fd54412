/**
 * Numbers that escaped the dashboard's one formatter (lib/shared/format.ts): a run of four or
 * more digits written without grouping ("10765.55", "65024.50"), standing alone in text. Parts
 * of identifiers and times are not numbers a person reads as amounts: a digit run joined to a
 * letter, a hyphen, a colon, a slash or another digit group (UUIDs, ref_ids, ISO dates, clocks)
 * is passed over.
 */
export const UNGROUPED_NUMBER = String.raw`(?<![\w.,:/-])\d{4,}(?:\.\d+)?(?![\w,:/-]|\.\d)`;

/** The ungrouped numbers in `text`, as written. */
export const ungroupedIn = (text: string): string[] => text.match(new RegExp(UNGROUPED_NUMBER, "g")) ?? [];

/**
 * In the page: the ungrouped numbers of its visible text, each with a little context, outside
 * what shows raw values by design (form fields, times with their instants, code).
 */
export function ungroupedOnPage(pattern: string): string[] {
  const skip = "input, textarea, select, option, time, code, script, style, [data-raw-value]";
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
    const text = node.textContent ?? "";
    for (const m of text.matchAll(new RegExp(pattern, "g"))) {
      found.push(`"${m[0]}" in "${text.trim().slice(0, 80)}"`);
    }
  }
  return found;
}
