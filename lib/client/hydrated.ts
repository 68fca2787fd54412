"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False while React hydrates the server's HTML, true from then on. A part of the page that
 * hydrates late (a lazily loaded table) may find in the query cache data the server never had;
 * showing it only once hydrated keeps the first render equal to the server's.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
