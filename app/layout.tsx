import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { THEME_COOKIE, themeClass } from "@/lib/shared/theme-choice";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Treasury Dashboard", template: "%s · Treasury Dashboard" },
  description: "Place trade orders and internal transfers, and review their results.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // A chosen theme is rendered by the server, so the first paint is right without a script.
  const theme = themeClass((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" className={theme}>
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
