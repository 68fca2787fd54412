import { chromium, type BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { onePerRun } from "./run-once";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium";
import { LANES } from "./shared-app";

/**
 * One Chromium per lane for the whole run (vitest globalSetup of the e2e project): a file
 * connects to its worker's in a third of a second instead of starting its own in about one
 * (launchBrowser in test/support/browser.ts). Each file still opens contexts of its own, with
 * their own cookies, and closes them.
 */

declare module "vitest" {
  export interface ProvidedContext {
    browsers: string[] | { error: string };
  }
}

const servers = onePerRun(
  "browsers",
  () =>
    Promise.all(
      Array.from({ length: LANES }, () =>
        chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }),
      ),
    ),
  async (all: BrowserServer[]) => void (await Promise.all(all.map((s) => s.close()))),
);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value, release } = servers.acquire();
  try {
    project.provide(
      "browsers",
      (await value).map((s) => s.wsEndpoint()),
    );
  } catch (error) {
    project.provide("browsers", { error: error instanceof Error ? error.message : String(error) });
  }
  return release;
}
