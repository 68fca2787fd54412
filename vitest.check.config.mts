import { defineConfig } from "vitest/config";
import { alias, common, components, routes, unit } from "./vitest.config.mjs";

/**
 * `npm run check`'s run (test:fast): the unit, routes and components files as one pool of three
 * workers. Vitest gives each project workers of its own, so as three projects each worker of each
 * loads the back end (about 3 s); as one, three workers load it once for all. The files, their
 * settings and their order are the projects' own (vitest.config.mts), but for the routes' two
 * variables, which the unit files see here too (none reads them unstubbed); a components file
 * asks for jsdom itself. `npm test` and `--project unit`, `--project routes` or `--project
 * components` run them as the projects, so CI runs each file as its project does.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    ...common,
    projects: [
      {
        resolve: { alias },
        test: { ...routes, name: "unit+routes", include: [...unit.include, ...routes.include, ...components.include] },
      },
    ],
  },
});
