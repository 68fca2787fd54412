"use client";

/** A theme colour as the canvas needs it: the CSS variable resolved to rgb() on the page as it is now. */
export function themeColor(token: string, alpha = 1): string {
  const probe = document.createElement("span");
  probe.style.color = `var(--color-${token})`;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color;
  probe.remove();
  return alpha === 1 ? rgb : rgb.replace(/^rgb\((.*)\)$/, `rgba($1, ${alpha})`);
}
