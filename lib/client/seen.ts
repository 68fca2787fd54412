"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * Whether an element has been on screen yet: what loads only once a person looks at it (an order's
 * execution quality, read when its details are opened) waits for it. Hidden (`display: none`, a
 * closed row's details) is not seen; once seen, it stays seen. Without IntersectionObserver, at once.
 * Returns the ref to put on the element, and whether it has been seen.
 */
export function useSeen<T extends Element>(): [(element: T | null) => void, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [seen, setSeen] = useState(false);
  const ref = useCallback((e: T | null) => setElement(e), []);
  const observable = typeof IntersectionObserver !== "undefined";
  useEffect(() => {
    if (seen || !element || !observable) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen, observable]);
  return [ref, seen || (element !== null && !observable)];
}
