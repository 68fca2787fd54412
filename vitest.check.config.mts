import { defineConfig } from "vitest/config";
import { alias, common, routes, unit } from "./vitest.config.mjs";

/**
 * `npm run check`'s run (test:fast): the unit and routes files as one pool of three workers.
 * Vitest gives each project workers of its own, so as two projects each worker of each loads the
 * back end (about 3 s); as one, three workers load it once for both. The files, their settings
 * and their order are the projects' own (vitest.config.mts), but for the routes' two variables,
 * which the unit files see here too (none reads them unstubbed). `npm test` and `--project unit`
 * or `--project routes` run them as the two projects, so CI runs each file as its project does.
 * The components files are npm test's alone: rendered in jsdom, they would keep the check over
 * its minute (CONTRIBUTING.md).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    ...common,
    projects: [
      {
        resolve: { alias },
        test: { ...routes, name: "unit+routes", include: [...unit.include, ...routes.include] },
      },
    ],
  },
});
