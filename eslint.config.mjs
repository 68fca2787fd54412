import coreWebVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

// The layering the README's Layout describes, enforced: browser-side code never reaches server code.
const serverOnly = [
  { group: ["@/lib/server/*", "**/lib/server/*"], message: "lib/server is server-only." },
  { group: ["@/lib/sandbox/*", "**/lib/sandbox/*"], message: "lib/sandbox runs on the server." },
];

// Pages load zod only when a form is first checked: schema modules are imported lazily
// (`await import(...)`) in browser code, and only their types statically.
const schemaModules = {
  regex: "^(@/lib/spec(/(order|transfer|fields|enum-schemas))?|zod(/.*)?)$",
  allowTypeImports: true,
  message:
    "Import lib/spec's pure modules (enums, markets, decimal, order-rules, ...); load schemas with await import().",
};

const config = [
  { ignores: [".next/**", "node_modules/**", "data/**", "next-env.d.ts", "coverage/**"] },
  ...coreWebVitals,
  ...typescript,
  { files: ["lib/spec/**"], rules: { "no-restricted-imports": ["error", { patterns: serverOnly }] } },
  {
    files: ["components/**", "lib/client/**"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...serverOnly, schemaModules] }],
    },
  },
  // Server code logs through lib/server/ops/log.ts (JSON lines, secrets redacted), never the console.
  {
    files: ["lib/server/**", "lib/sandbox/**", "app/**/route.ts", "instrumentation.ts", "proxy.ts"],
    rules: { "no-console": "error" },
  },
  // No import circle in the back end: the create path runs in one direction (parse -> bind the
  // ref_id -> repeat question -> controls -> hold or send once), and approvals import only its send.
  { files: ["lib/server/**"], rules: { "import/no-cycle": ["error", { ignoreExternal: true }] } },
  // Tests read loosely typed JSON bodies of HTTP responses.
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
