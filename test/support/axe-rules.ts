import { createRequire } from "node:module";

/** What axe-core says of a rule: its id, and the impact it gives every violation when it names one. */
export interface AxeRule {
  id: string;
  impact?: string | null;
}

/**
 * The rules that can never fail a scan here: a scan fails on serious and critical violations
 * only (axeViolations), and a rule that names its own impact gives it to every violation it
 * finds (axe-core's finalizeRuleResult sets each check's impact to the rule's). So a rule of
 * minor or moderate impact answers nothing a scan reads, and turning it off changes no result:
 * it spares its work (`region` alone walks every element of the page).
 */
export function rulesBelowSerious(rules: readonly AxeRule[]): string[] {
  return rules.filter((r) => r.impact === "minor" || r.impact === "moderate").map((r) => r.id);
}

/** axe-core's rules as this package defines them: the same file the pages load (axe.min.js). */
export function axeRules(): AxeRule[] {
  const axe = createRequire(import.meta.url)("axe-core") as { _audit: { rules: AxeRule[] } };
  return axe._audit.rules.map(({ id, impact }) => ({ id, impact }));
}

/**
 * The rules whose answer depends on colours: all a theme switched in place changes (the page's
 * elements, names and roles stay as they were; a chart's canvas is no element axe reads).
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
