import type { Problem } from "@/lib/spec/problem";

/** A problem from the dashboard or the service, in plain words. */
export function ProblemAlert({ problem, title }: { problem: Problem; title?: string }) {
  const errors = (problem.meta?.errors as { field: string; message: string }[] | undefined) ?? [];
  return (
    <div role="alert" className="rounded-md border border-sell/30 bg-sell-soft px-4 py-3 text-sm text-sell">
      <p className="font-semibold">{title ?? problem.title}</p>
      {errors.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {errors.map((e) => (
            <li key={`${e.field}:${e.message}`}>{e.message}</li>
          ))}
        </ul>
      ) : (
        problem.detail && <p className="mt-1">{problem.detail}</p>
      )}
    </div>
  );
}
