"use client";

import { useEffect, useState } from "react";

/**
 * A text filter typed into: the box shows every keystroke, the URL (and so the query) follows
 * once typing pauses for `ms`. Returns the box's text and its setter.
 */
export function useTypedFilter(urlValue: string, write: (value: string) => void, ms = 400) {
  const [text, setText] = useState(urlValue);
  const settled = useDebounced(text.trim(), ms);
  useEffect(() => {
    if (settled !== urlValue) write(settled);
  }, [settled]); // eslint-disable-line react-hooks/exhaustive-deps -- only a pause in typing writes the URL
  return [text, setText] as const;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
