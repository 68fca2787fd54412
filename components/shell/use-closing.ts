"use client";

import { useEffect, useRef, type RefObject } from "react";

/**
 * For a panel a header button opens (the Notices list, the page menu): closes it on Escape, the
 * focus back on the button, and on a press outside the button and the panel.
 */
export function useClosing(
  open: boolean,
  close: () => void,
  button: RefObject<HTMLElement | null>,
  panel: RefObject<HTMLElement | null>,
) {
  const closeNow = useRef(close);
  useEffect(() => {
    closeNow.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      closeNow.current();
      button.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!button.current?.contains(target) && !panel.current?.contains(target)) closeNow.current();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open, button, panel]);
}
