/**
 * The colour rules read one table row of each look: a desk's tables hold dozens of rows drawn
 * alike (40 resting orders, 30 sent transfers), and axe's color-contrast, most of a scan, read
 * each of their cells. With this a scan of a desk's pages costs 0.76 of the CPU (`npm run
 * bench:axe`), and test/e2e/visits.test.ts alone 114 against 127 CPU-s.
 * Used by axeViolations (test/support/browser.ts); its test is in test/e2e/visits.test.ts.
 */

/**
 * In the page: marks each table body row whose every element is drawn as in a row before it in
 * the same table (the same colours, font, opacity and whether it holds text of its own), with
 * all inside it. Such a row's contrast is the earlier row's, so the colour rules skip it: on
 * /orders with a desk's records, 61 of 75 rows.
 */
export function markRepeatedRows(mark: string): void {
  // No named function inside: tsx names each one with a helper the page does not have.
  for (const table of document.querySelectorAll("table")) {
    const seen = new Set<string>();
    for (const row of table.querySelectorAll(":scope > tbody > tr")) {
      const elements = [row, ...row.querySelectorAll("*")];
      const looks = elements
        .map((el) => {
          const s = getComputedStyle(el);
          const text = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "");
          return [el.tagName, text, s.color, s.backgroundColor, s.backgroundImage, s.fontSize, s.fontWeight]
            .concat([s.opacity, s.visibility, s.display, s.textDecorationLine, s.textShadow, s.filter, s.mixBlendMode])
            .join("|");
        })
        .join(";");
      if (!seen.has(looks)) seen.add(looks);
      else elements.forEach((el) => el.setAttribute(mark, ""));
    }
  }
}

/** What markRepeatedRows puts on a repeated row's elements during a scan. */
export const REPEAT_MARK = "data-axe-repeat";

/** In the page: takes markRepeatedRows's marks off again, once the scan is done. */
export function unmarkRepeatedRows(mark: string): void {
  document.querySelectorAll(`[${mark}]`).forEach((el) => el.removeAttribute(mark));
}

/**
 * In the page, once axe is loaded: the colour rules skip whatever carries `mark`, each of their
 * selectors kept (axe.configure changes the rule's selector alone). The other rules read every row.
 */
export function skipRepeatsInColourRules({ rules, mark }: { rules: string[]; mark: string }): void {
  const axe = (
    window as unknown as {
      axe: { _audit: { rules: { id: string; selector: string }[] }; configure: (spec: object) => void };
    }
  ).axe;
  for (const id of rules) {
    const { selector } = axe._audit.rules.find((rule) => rule.id === id)!;
    const skipping = selector
      .split(",")
      .map((part) => `${part.trim()}:not([${mark}])`)
      .join(", ");
    axe.configure({ rules: [{ id, selector: skipping }] });
  }
}
