import { RESULT_WORDS, type ActivityResult } from "@/lib/shared/activity-outcome";

const TONES: Record<ActivityResult, string> = {
  waiting: "bg-warn-soft text-warn",
  accepted: "bg-buy-soft text-buy",
  // Outlined: told apart from a request that failed by its outline too, not by its word alone.
  rejected: "border border-sell bg-sell-soft text-sell",
  failed: "bg-sell-soft text-sell",
  declined: "bg-slate-200 text-slate-700",
};

const TITLES: Record<ActivityResult, string> = {
  waiting: "Sent; the service has not answered yet",
  accepted: "The service took it",
  rejected: "The service took the request, then turned its record down",
  failed: "Refused, or never answered: see why beside it",
  declined: "Declined as a repeat: never sent",
};

/** What came of a journal entry, in the words the activity's Status filter uses; the colour is never the only signal. */
export function ResultBadge({ result }: { result: ActivityResult }) {
  return (
    <span
      data-result={result}
      title={TITLES[result]}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[result]}`}
    >
      {RESULT_WORDS[result]}
    </span>
  );
}
