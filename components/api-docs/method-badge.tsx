/** The method in words on a tint of its own: the colour is never the only signal. */
const METHOD_TONE: Record<string, string> = {
  get: "bg-brand-soft text-brand",
  post: "bg-buy-soft text-buy",
  put: "bg-warn-soft text-warn",
  delete: "bg-sell-soft text-sell",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block min-w-14 rounded px-1.5 py-0.5 text-center font-mono text-xs font-bold ${METHOD_TONE[method] ?? "bg-slate-200 text-slate-700"}`}
    >
      {method.toUpperCase()}
    </span>
  );
}
