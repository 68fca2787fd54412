import coreWebVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

// Who may import what (issue 19; CONTRIBUTING.md's layout rules). Paths are resolved, so an
// alias (`@/lib/server/...`) and a relative climb (`../server/...`) are caught alike.
//   lib/spec     the service's contract: imports nothing of the app.
//   lib/shared   what the browser and the server both use: neither browser nor server code.
//   lib/client   hooks and browser-only code: never the server or the sandbox.
//   components   the pages' React components, run in the browser: never the server or the sandbox.
//   lib/server   the back end: never browser code.
//   lib/sandbox  the embedded service: of the back end only its HTTP toolkit (one problem vocabulary).
//   Inside lib/server (issue 25): db and upstream are floors that import none of http, create,
//   approvals, lists or live; create imports nothing from approvals.
const zone = (target, from, message) => ({ target, from, message });
const boundaries = [
  zone(
    "./lib/spec",
    ["./lib/shared", "./lib/client", "./lib/server", "./lib/sandbox", "./components", "./app"],
    "lib/spec is the contract: it imports nothing of the app.",
  ),
  zone(
    "./lib/shared",
    ["./lib/client", "./components", "./app"],
    "lib/shared runs in the browser and on the server: no browser code.",
  ),
  zone(
    "./lib/shared",
    ["./lib/server", "./lib/sandbox"],
    "lib/shared runs in the browser and on the server: no server code.",
  ),
  zone(
    "./lib/client",
    ["./lib/server", "./lib/sandbox"],
    "lib/client runs in the browser: lib/server and lib/sandbox are server-only.",
  ),
  zone(
    "./components",
    ["./lib/server", "./lib/sandbox"],
    "Components run in the browser: lib/server and lib/sandbox are server-only.",
  ),
  zone(
    "./lib/sandbox",
    ["./lib/client", "./lib/shared", "./components", "./app"],
    "lib/sandbox is the service: it knows nothing of the dashboard.",
  ),
  {
    target: "./lib/sandbox",
    from: "./lib/server",
    except: ["./http/toolkit.ts"],
    message: "lib/sandbox is the service: of the back end it uses only lib/server/http/toolkit.ts.",
  },
  zone(
    "./lib/server",
    ["./lib/client", "./components"],
    "lib/server never imports browser code: move what both use to lib/shared.",
  ),
  // Floors inside the back end: the database and the service's client are below what uses them.
  zone(
    "./lib/server/db",
    ["./lib/server/http", "./lib/server/create", "./lib/server/approvals", "./lib/server/lists", "./lib/server/live"],
    "lib/server/db is a floor below HTTP, creates, approvals, lists and live updates: throw a typed error instead.",
  ),
  zone(
    "./lib/server/upstream",
    ["./lib/server/http", "./lib/server/create", "./lib/server/approvals", "./lib/server/lists", "./lib/server/live"],
    "lib/server/upstream is a floor below HTTP, creates, approvals, lists and live updates.",
  ),
  // One direction: approving calls create's send step; create knows nothing of approvals.
  zone(
    "./lib/server/create",
    ["./lib/server/approvals"],
    "lib/server/create imports nothing from approvals: move what both need below both.",
  ),
];

// Pages load zod only when a form is first checked: schema modules are imported lazily
// (`await import(...)`) in browser code, and only their types statically.
const schemaModules = {
  regex: "^(@/lib/spec(/(order|transfer|fields|enum-schemas))?|zod(/.*)?)$",
  allowTypeImports: true,
  message:
    "Import lib/spec's pure modules (enums, markets, decimal, order-rules, ...); load schemas with await import().",
};

// Links prefetch their page once a person shows intent, not every page in view on every load.
const nextLink = {
  name: "next/link",
  message: "Link to a page with IntentLink (components/ui/intent-link.tsx): it prefetches on intent.",
};

const config = [
  { ignores: [".next/**", ".next-*/**", "node_modules/**", "data/**", "next-env.d.ts", "coverage/**"] },
  ...coreWebVitals,
  ...typescript,
  { rules: { "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: boundaries }] } },
  // lib/shared is plain TypeScript: no React, no Next, no Node built-ins, no "server-only".
  {
    files: ["lib/shared/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "react",
                "react-dom",
                "react-dom/*",
                "next",
                "next/*",
                "@tanstack/*",
                "server-only",
                "client-only",
              ],
              message:
                "lib/shared runs in the browser and on the server: a hook or a server module belongs in lib/client or lib/server.",
            },
            { group: ["node:*"], message: "lib/shared runs in the browser too." },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**", "lib/client/**"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": ["error", { paths: [nextLink], patterns: [schemaModules] }],
    },
  },
  { files: ["app/**"], rules: { "no-restricted-imports": ["error", { paths: [nextLink] }] } },
  {
    files: ["components/ui/intent-link.tsx"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [schemaModules] }] },
  },
  // Server code logs through lib/server/ops/log.ts (JSON lines, secrets redacted), never the console.
  {
    files: ["lib/server/**", "lib/sandbox/**", "app/**/route.ts", "instrumentation.ts", "proxy.ts"],
    rules: { "no-console": "error" },
  },
  // No import circle: scripts/check-import-cycles.mjs (`npm run cycles`), not import/no-cycle,
  // whose walk of the whole graph from every file took most of ESLint's time.
  // Tests read loosely typed JSON bodies of HTTP responses.
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
