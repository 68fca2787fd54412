/**
 * An amount and its asset in a table's cell, "1.23456789 ETH". Short of room (a laptop's table
 * beside the ticket or the transfer form) the asset drops under the amount rather than push the
 * status and action columns out of view (issue 26); the number itself never breaks.
 */
export function AssetAmount({ text, asset }: { text: string; asset: string | undefined }) {
  return (
    <span className="whitespace-normal">
      <span className="whitespace-nowrap">{text}</span> <span className="text-xs text-ink-muted">{asset}</span>
    </span>
  );
}
