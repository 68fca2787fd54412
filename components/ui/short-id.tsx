/**
 * A record's id as the tables write it: its first 8 characters, the whole in the title. It is
 * code, not a number, even when those characters are all digits ("60527532").
 */
export function ShortId({ id, className = "" }: { id: string; className?: string }) {
  return (
    <code className={`font-mono ${className}`} title={id}>
      {id.slice(0, 8)}
    </code>
  );
}
