"use client";

import { useEffect, useState } from "react";

/**
 * How long a button that sends ignores activation after it appears. Enter in a field opens
 * the review; a second Enter (or a Space, or a click) a moment later must not send an order
 * nobody read: sending takes a deliberate act after the review is on screen. The approvals'
 * Approve and Confirm wait as long.
 */
export const REVIEW_ARMING_MS = 700;

/** False for REVIEW_ARMING_MS after the component that calls it appears, then true. */
export function useArmed(): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), REVIEW_ARMING_MS);
    return () => clearTimeout(timer);
  }, []);
  return armed;
}
