// @vitest-environment jsdom
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import { axeRules, rulesBelowSerious } from "../../support/axe-rules";

/**
 * Every violation of a scan of the document, as its rule's id and its impact. jsdom draws
 * nothing, so colour contrast is left to the browser's scans.
 */
async function scan(rules: axe.RuleObject = {}) {
  const { violations } = await axe.run(document, {
    resultTypes: ["violations"],
    rules: { "color-contrast": { enabled: false }, ...rules },
  });
  return violations.map((v) => `${v.id} ${v.impact}`);
}
const off = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, { enabled: false }]));

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the axe rules a scan turns off", () => {
  it("are those that name a minor or moderate impact, and only those", () => {
    expect(
      rulesBelowSerious([
        { id: "a", impact: "minor" },
        { id: "b", impact: "moderate" },
        { id: "c", impact: "serious" },
        { id: "d", impact: "critical" },
        { id: "e", impact: null },
        { id: "f" },
      ]),
    ).toEqual(["a", "b"]);
    const below = rulesBelowSerious(axeRules());
    expect(below).toContain("region");
    expect(below).not.toContain("color-contrast");
    expect(below).not.toContain("image-alt");
  });

  it("find only violations of their own impact, which a scan never fails on; the serious rules still find theirs", async () => {
    const below = rulesBelowSerious(axeRules());
    // Text outside any landmark (region, moderate) and two main landmarks (moderate), an image with no alt (critical).
    document.body.innerHTML = `<p>Outside every landmark</p><main><h1>One</h1></main><main>Two</main><img src="x.png">`;
    const all = await scan();
    expect(all).toEqual(
      expect.arrayContaining(["region moderate", "landmark-no-duplicate-main moderate", "image-alt critical"]),
    );
    for (const found of all) {
      const [id, impact] = found.split(" ");
      expect(below.includes(id!), found).toBe(impact === "minor" || impact === "moderate");
    }
    const failing = all.filter((found) => / (serious|critical)$/.test(found));
    expect(failing).toContain("image-alt critical");
    expect(await scan(off(below))).toEqual(failing);
  });
});
