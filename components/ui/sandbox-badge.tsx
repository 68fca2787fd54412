/** Shown on every screen while the dashboard talks to its embedded sandbox, never to real money. */
export function SandboxBadge() {
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full bg-warn-soft px-3 py-1 text-xs font-semibold uppercase tracking-wide text-warn"
      title="Orders and transfers go to the embedded sandbox: simulated service, no real funds"
    >
      <span aria-hidden className="size-2 rounded-full bg-warn" />
      Sandbox
    </span>
  );
}
