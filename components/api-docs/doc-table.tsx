import type { CSSProperties, ReactNode } from "react";

/**
 * The tables of the API docs (fields, parameters, responses). From 640 px up a table, whose
 * cells wrap anywhere so it fits its card (the box around it scrolls sideways should one ever
 * not); below, each row is a card of label and value pairs, as the desk's tables are on a phone.
 *
 * The reference has about a thousand rows: their cells' styles are set once, on its root
 * (DOC_STYLES), not on each cell: the page's HTML is a fraction of what it would be.
 */
export const DOC_STYLES = [
  "wrap-anywhere [&_a]:text-brand [&_a]:underline [&_a:hover]:text-brand-hover",
  "[&_tbody_tr]:align-top [&_tbody_th]:py-1.5 [&_tbody_th]:pr-2.5 [&_tbody_th]:font-mono [&_tbody_th]:font-medium [&_td]:px-2.5 [&_td]:py-1.5",
  // A nested field's name (its row has a style: its --depth) is indented, with an arrow; on a phone its card is.
  "sm:[&_tbody_th]:pl-[calc(0.625rem+var(--depth,0)*1.125rem)] max-sm:[&_tbody_tr]:ml-[calc(var(--depth,0)*1rem)]",
  "[&_tr[style]>th]:before:mr-1 [&_tr[style]>th]:before:text-ink-muted [&_tr[style]>th]:before:content-['↳']",
  "max-sm:[&_tbody_tr]:block max-sm:[&_tbody_tr]:rounded-md max-sm:[&_tbody_tr]:border max-sm:[&_tbody_tr]:border-slate-200 max-sm:[&_tbody_tr]:px-3 max-sm:[&_tbody_tr]:py-2",
  "max-sm:[&_tbody_th]:block max-sm:[&_tbody_th]:px-0",
  // On a phone a cell's label (data-label) sits in its left margin, whatever the value is made of.
  "max-sm:[&_td]:relative max-sm:[&_td]:block max-sm:[&_td]:py-0.5 max-sm:[&_td]:pr-0 max-sm:[&_td]:pl-28",
  "max-sm:[&_td]:before:absolute max-sm:[&_td]:before:left-0 max-sm:[&_td]:before:w-26 max-sm:[&_td]:before:text-xs max-sm:[&_td]:before:leading-5 max-sm:[&_td]:before:text-ink-muted max-sm:[&_td]:before:content-[attr(data-label)]",
].join(" ");

/** A column: its header, and the width it takes on a wide screen (the rest share what is left). */
export type Column = [header: string, width?: string];

export function DocTable({ caption, columns, children }: { caption: string; columns: Column[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto sm:rounded-md sm:border sm:border-slate-200">
      <table aria-label={caption} className="w-full text-left text-sm max-sm:block">
        <thead className="bg-surface-raised text-xs text-ink-muted max-sm:hidden">
          <tr>
            {columns.map(([header, width = ""]) => (
              <th key={header} scope="col" className={`px-2.5 py-1.5 font-semibold whitespace-nowrap ${width}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 max-sm:block max-sm:space-y-2 max-sm:divide-y-0">{children}</tbody>
      </table>
    </div>
  );
}

/** A row: a card on a phone, `depth` levels in (a nested field's). */
export function DocRow({ depth = 0, children }: { depth?: number; children: ReactNode }) {
  return <tr style={depth ? ({ "--depth": depth } as CSSProperties) : undefined}>{children}</tr>;
}

/** The row's name: its header cell, heading its card on a phone; `label`, its name in full. */
export function NameCell({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <th scope="row" aria-label={label}>
      {children}
    </th>
  );
}

/** A value, with its column's name beside it on a phone, where there is no header row. */
export function Cell({ label, children }: { label: string; children: ReactNode }) {
  return <td data-label={label}>{children}</td>;
}
