"use client";

import { downloadCsv, toCsv } from "@/lib/client/csv";
import { Button } from "./button";

/** Downloads the rows built at click time as `<name>-<UTC time>.csv`. */
export function CsvButton({
  name,
  header,
  rows,
  disabled,
}: {
  name: string;
  header: string[];
  rows: () => string[][];
  disabled?: boolean;
}) {
  return (
    <Button
      variant="secondary"
      className="whitespace-nowrap"
      disabled={disabled}
      onClick={() => {
        const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
        downloadCsv(`${name}-${stamp}.csv`, toCsv(header, rows()));
      }}
    >
      <span aria-hidden>⤓</span> Export CSV
    </Button>
  );
}
