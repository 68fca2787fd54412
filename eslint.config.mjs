import coreWebVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

// The layering of DESIGN.md, enforced: browser-side code never reaches server code.
const noServerImports = {
  "no-restricted-imports": [
    "error",
    {
      patterns: [
        { group: ["@/lib/server/*", "**/lib/server/*"], message: "lib/server is server-only." },
        { group: ["@/lib/sandbox/*", "**/lib/sandbox/*"], message: "lib/sandbox runs on the server." },
      ],
    },
  ],
};

const config = [
  { ignores: [".next/**", "node_modules/**", "data/**", "next-env.d.ts", "coverage/**"] },
  ...coreWebVitals,
  ...typescript,
  { files: ["components/**", "lib/spec/**"], rules: noServerImports },
  // Tests read loosely typed JSON bodies of HTTP responses.
  { files: ["test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
