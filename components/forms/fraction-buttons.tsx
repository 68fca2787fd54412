"use client";

import { Button } from "../ui/button";

/** The shares of a balance a person picks instead of typing an amount. */
const PERCENTS = [25, 50, 100] as const;

/** 25%, 50% and 100% under an amount field: `onPick` fills the field with that share of the balance. */
export function FractionButtons({
  field,
  disabled,
  onPick,
}: {
  /** The field's label: the group reads "<label> from balance". */
  field: string;
  disabled?: boolean;
  onPick: (percent: number) => void;
}) {
  return (
    <div className="mt-1 flex gap-1" role="group" aria-label={`${field} from balance`}>
      {PERCENTS.map((p) => (
        <Button
          key={p}
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          disabled={disabled}
          onClick={() => onPick(p)}
        >
          {p}%
        </Button>
      ))}
    </div>
  );
}
