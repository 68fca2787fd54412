"use client";

import { useCallback, useEffect, useState, type ReactNode } from "react";

/**
 * Says so when a table scrolls sideways: a shadow on the edge where more columns hide, and a
 * line under the table. `ref` goes on the scroll box; `hint` is rendered beside it.
 */
export function useScrollHint(): { ref: (el: HTMLDivElement | null) => void; hint: ReactNode; scrolls: boolean } {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    if (!box) return;
    const update = () => {
      const hidden = box.scrollWidth - box.clientWidth;
      // Below the phone breakpoint the box does not scroll (rows are cards): nothing to say.
      const scrolls = hidden > 1 && getComputedStyle(box).overflowX !== "visible";
      const left = scrolls && box.scrollLeft > 1;
      const right = scrolls && box.scrollLeft < hidden - 1;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    const observer = new ResizeObserver(update);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    // A cell's new content can widen or narrow a fixed-width table's overflow while neither box
    // changes size: the rows' changes are read too, once a frame.
    let frame = 0;
    const mutations = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(update);
    });
    mutations.observe(box, { childList: true, subtree: true, characterData: true });
    box.addEventListener("scroll", update, { passive: true });
    update();
    return () => {
      observer.disconnect();
      mutations.disconnect();
      cancelAnimationFrame(frame);
      box.removeEventListener("scroll", update);
    };
  }, [box]);
  const ref = useCallback((el: HTMLDivElement | null) => setBox(el), []);
  const scrolls = more.left || more.right;
  return {
    ref,
    scrolls,
    hint: (
      <>
        <Shade side="left" on={more.left} />
        <Shade side="right" on={more.right} />
        <p data-testid="table-scroll-hint" hidden={!scrolls} className="mt-1 text-right text-xs text-ink-muted">
          More columns: scroll the table sideways <span aria-hidden>→</span>
        </p>
      </>
    ),
  };
}

/** The shadow on a side where columns are hidden; it never takes a click. */
function Shade({ side, on }: { side: "left" | "right"; on: boolean }) {
  if (!on) return null;
  return (
    <span
      aria-hidden
      data-scroll-shadow={side}
      className={`pointer-events-none absolute top-0 bottom-6 w-4 ${
        side === "left"
          ? "left-0 rounded-l-lg bg-linear-to-r from-black/15 to-transparent"
          : "right-0 rounded-r-lg bg-linear-to-l from-black/15 to-transparent"
      }`}
    />
  );
}
