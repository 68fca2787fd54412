/**
 * "Export CSV": a link to a back-end export that streams every row matching the table's
 * filters (not just the loaded page) as a download; the file's name comes from the server.
 */
export function CsvLink({ href, label = "Export CSV" }: { href: string; label?: string }) {
  return (
    <a
      href={href}
      download
      className="inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-surface px-3 py-2 text-sm font-semibold whitespace-nowrap text-ink hover:bg-surface-raised"
    >
      <span aria-hidden>⤓</span> {label}
    </a>
  );
}
