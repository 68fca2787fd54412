"use client";

import dynamic from "next/dynamic";

/**
 * The metadata editor sits closed under Advanced: it is drawn on the server with the page, and
 * its script loads after the page's first one (the order ticket's first-load budget).
 */
export const MetadataEditor = dynamic(() => import("./metadata-editor").then((m) => m.MetadataEditor));
