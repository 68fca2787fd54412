/**
 * How the page scrolls itself: smoothly, unless the person asked their system for less motion
 * (prefers-reduced-motion), when it jumps. app/globals.css stops the CSS animations for them.
 */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}
