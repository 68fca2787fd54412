import { SandboxBadge } from "@/components/ui/sandbox-badge";
import { MARKETS } from "@/lib/spec";
import { env } from "@/lib/server/env";

// The configuration is read per request, not frozen into the build.
export const dynamic = "force-dynamic";

const SECTIONS = [
  {
    title: "Order ticket",
    text: "Limit, market, post-only and stop orders, checked against the service's rules before they leave.",
  },
  { title: "Internal transfers", text: "Move an asset between profiles and follow both legs until they complete." },
  { title: "Activity", text: "Every request the desk sent: who, when, what, and what the service answered." },
];

export default function HomePage() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <header className="flex flex-wrap items-center gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Treasury Dashboard</h1>
        {env.service.isSandbox && <SandboxBadge />}
      </header>
      <p className="mt-4 max-w-2xl text-ink-muted">
        Trading and treasury operations for the desk: orders on {MARKETS.length} markets and internal transfers between
        profiles, with every request journaled.
      </p>
      <ul className="mt-10 grid gap-4 sm:grid-cols-3">
        {SECTIONS.map((s) => (
          <li key={s.title} className="rounded-lg border border-slate-200 bg-surface p-5 shadow-sm">
            <h2 className="font-semibold">{s.title}</h2>
            <p className="mt-2 text-sm text-ink-muted">{s.text}</p>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-sm text-ink-muted">
        Service: <code className="font-mono">{env.service.isSandbox ? "embedded sandbox" : env.service.baseUrl}</code>
      </p>
    </main>
  );
}
