import { Card } from "@/components/ui/card";
import { Bar, Bars, LoadingShape } from "@/components/ui/loading-shape";

/** A field as the form draws it: its label above a box, and its hint below when it has one. */
const FieldShape = ({ hint = false }: { hint?: boolean }) => (
  <div className="space-y-2">
    <Bar className="h-4 w-2/3" />
    <Bar className="h-9" />
    {hint && <Bar className="h-3 w-1/2" />}
  </div>
);

/**
 * The Policies form's shape while the policy loads: the line saying what is in force, the rules'
 * card with its words and two rules, the limits' and the guard's cards, the buttons.
 */
export function PolicyShape() {
  return (
    <LoadingShape label="Loading the policy…" className="grid items-start gap-6 xl:grid-cols-2">
      <div className="space-y-2 xl:col-span-2">
        <Bar onPage className="h-6 w-40" />
        <Bar onPage className="h-5 w-2/3" />
      </div>
      <Card title="Approval rules (four eyes)" className="xl:col-span-2">
        <Bars count={5} gap="gap-2" />
        {[0, 1].map((i) => (
          <div key={i} className="mt-4 grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-4">
            <FieldShape />
            <FieldShape />
            <FieldShape />
            <FieldShape />
          </div>
        ))}
        <Bar className="mt-4 h-9 w-28" />
      </Card>
      <Card title="Pre-trade limits">
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldShape hint />
          <FieldShape hint />
          <FieldShape hint />
          <FieldShape hint />
        </div>
      </Card>
      <Card title="Price guard">
        <FieldShape hint />
      </Card>
      <div className="flex gap-3 xl:col-span-2">
        <Bar onPage className="h-9 w-32" />
        <Bar onPage className="h-9 w-32" />
      </div>
    </LoadingShape>
  );
}
