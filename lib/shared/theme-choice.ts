/**
 * The theme a person chose in this browser, shared by the server (which renders it on <html>)
 * and the header's toggle (lib/client/theme.tsx).
 */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_COOKIE = "theme";

/** The class <html> gets for a chosen theme; none follows the system. */
export const themeClass = (choice: string | null | undefined): "light" | "dark" | undefined =>
  choice === "light" || choice === "dark" ? choice : undefined;
