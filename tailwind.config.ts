import type { Config } from "tailwindcss";

// Loaded by app/globals.css through `@config`. Colours carry meaning in a trading
// tool: buy/sell and order/transfer statuses use the same tokens everywhere.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        ink: { DEFAULT: "#0f172a", muted: "#475569", faint: "#94a3b8" },
        surface: { DEFAULT: "#ffffff", sunken: "#f1f5f9", raised: "#f8fafc" },
        brand: { DEFAULT: "#1d4ed8", hover: "#1e40af", soft: "#dbeafe" },
        buy: { DEFAULT: "#047857", soft: "#d1fae5" },
        sell: { DEFAULT: "#b91c1c", soft: "#fee2e2" },
        warn: { DEFAULT: "#92400e", soft: "#fef3c7" },
      },
      fontFamily: {
        sans: ["Inter", "ui-sans-serif", "system-ui", "sans-serif"],
        mono: ["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
      },
    },
  },
};

export default config;
