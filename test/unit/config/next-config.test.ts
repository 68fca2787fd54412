import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { networkInterfaces } from "node:os";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from "next/constants";
import { afterEach, describe, expect, it, vi } from "vitest";

const require = createRequire(import.meta.url);
const configPath = require.resolve("../../../next.config.js");

interface Config {
  allowedDevOrigins?: string[];
  distDir?: string;
  output?: string;
  typescript?: { ignoreBuildErrors?: boolean; tsconfigPath?: string };
}

/** next.config.js as `next dev` (or the command of `phase`) would load it with these variables. */
function loadConfig(env: Record<string, string>, phase = PHASE_DEVELOPMENT_SERVER): Config {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  delete require.cache[configPath];
  return (require(configPath) as (phase: string) => Config)(phase);
}

afterEach(() => {
  vi.unstubAllEnvs();
  delete require.cache[configPath];
});

describe("next.config.js in development", () => {
  it("lets loopback, the public host and the machine's addresses use the dev server", () => {
    const { allowedDevOrigins = [] } = loadConfig({
      NODE_ENV: "development",
      NEXTAUTH_URL: "https://desk.example.com:8443/dashboard",
    });
    expect(allowedDevOrigins).toEqual(expect.arrayContaining(["localhost", "127.0.0.1", "[::1]", "desk.example.com"]));
    const ipv4 = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a?.family === "IPv4")
      .map((a) => a!.address);
    expect(allowedDevOrigins).toEqual(expect.arrayContaining(ipv4));
  });

  it("lists hostnames as Next matches them: no scheme, no port, IPv6 in brackets", () => {
    const { allowedDevOrigins = [] } = loadConfig({ NODE_ENV: "development" });
    for (const host of allowedDevOrigins) expect(host).toMatch(/^(\[[0-9a-f:]+\]|[^:/[\]]+)$/);
  });

  it("ignores a malformed NEXTAUTH_URL (the server's own check reports it)", () => {
    expect(loadConfig({ NODE_ENV: "development", NEXTAUTH_URL: "not a url" }).allowedDevOrigins).toContain("127.0.0.1");
  });

  it("builds into NEXT_DIST_DIR when it is set, .next otherwise", () => {
    expect(loadConfig({ NEXT_DIST_DIR: ".next/test-dev" }).distDir).toBe(".next/test-dev");
    expect(loadConfig({ NEXT_DIST_DIR: "" }).distDir).toBe(".next");
  });
});

describe("next.config.js in production", () => {
  it("writes the standalone folder when building, and leaves next start as it was (no warning)", () => {
    expect(loadConfig({}, PHASE_PRODUCTION_BUILD).output).toBe("standalone");
    expect(loadConfig({}, PHASE_PRODUCTION_SERVER).output).toBeUndefined();
  });
});

describe("next.config.js and the type check", () => {
  const { scripts } = require("../../../package.json") as { scripts: Record<string, string> };
  /** The npm scripts that `name` runs, each followed by those it runs in turn. */
  function runs(name: string): string[] {
    const command = scripts[name] ?? "";
    const inTurn = [...command.matchAll(/npm run (\S+)/g)].map((m) => m[1]!);
    const sideBySide = /run-parallel\.mjs ([^&|;]+)/.exec(command)?.[1]!.trim().split(/\s+/) ?? [];
    // npm test's runner names its scripts in its code: run("build"), checking(["typecheck", "cycles"], ...).
    const code = command.includes("scripts/run-tests.mjs")
      ? readFileSync(require.resolve("../../../scripts/run-tests.mjs"), "utf8")
      : "";
    const runner = [
      ...[...code.matchAll(/\brun\("([^"]+)"/g)].map((m) => m[1]!),
      ...[...code.matchAll(/\bchecking\(\[([^\]]+)\]/g)].flatMap((m) =>
        [...m[1]!.matchAll(/"([^"]+)"/g)].map((n) => n[1]!),
      ),
    ];
    return [...inTurn, ...sideBySide, ...runner].flatMap((script) => [script, ...runs(script)]);
  }

  it("lets the build skip type errors only because tsc checks them, in npm test and npm run check", () => {
    expect(loadConfig({}, PHASE_PRODUCTION_BUILD).typescript?.ignoreBuildErrors).toBe(true);
    // The route types first (.next/types, as the build writes them): tsc reads the same files
    // whether or not a build came before, and its incremental state holds across one. The tsc is
    // TypeScript 7's (typescript-native); Next and ESLint load TypeScript 5's JavaScript API.
    expect(scripts.typecheck).toBe("next typegen && node node_modules/typescript-native/bin/tsc --noEmit");
    // In npm test, beside the tests (scripts/run-tests.mjs; its failure fails the run), with the
    // rest of `npm run static`.
    const staticChecks = runs("static");
    expect(staticChecks).toEqual(expect.arrayContaining(["typecheck", "lint:eslint", "lint:prettier", "cycles"]));
    expect(runs("test")).toEqual(expect.arrayContaining(["build", ...staticChecks, "test:run"]));
    expect(runs("check")).toContain("typecheck");
  });

  it("names a tsconfig that extends tsconfig.json, which Next does not rewrite", () => {
    const { tsconfigPath } = loadConfig({}, PHASE_PRODUCTION_BUILD).typescript ?? {};
    const tsconfig = JSON.parse(readFileSync(require.resolve(`../../../${tsconfigPath}`), "utf8")) as {
      extends?: string;
    };
    expect(tsconfig.extends).toBe("./tsconfig.json");
  });
});
