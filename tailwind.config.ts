import type { Config } from "tailwindcss";

// Loaded by app/globals.css through `@config`. The colours (ink, surface, brand, buy, sell,
// warn and the slate palette) are in app/globals.css's @theme, light and dark. They carry
// meaning in a trading tool: buy/sell and order/transfer statuses use the same tokens everywhere.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      fontFamily: {
        sans: ["Inter", "ui-sans-serif", "system-ui", "sans-serif"],
        mono: ["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
      },
    },
  },
};

export default config;
