import type { ComponentProps } from "react";

const VARIANTS = {
  primary: "bg-brand text-white hover:bg-brand-hover disabled:bg-brand/60",
  secondary: "border border-slate-300 bg-surface text-ink hover:bg-surface-raised disabled:text-ink-faint",
  danger: "bg-sell text-white hover:bg-sell/90 disabled:bg-sell/50",
  ghost: "text-brand hover:bg-brand-soft disabled:text-ink-faint",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

/**
 * Every button is at least 32 px tall, and 44 px where it is pressed with a finger (a touch
 * screen, or a screen narrower than 640 px): a target a person can hit. "sm" is for a table row.
 */
const SIZES = {
  md: "min-h-9 px-3 py-2 text-sm max-sm:min-h-11 pointer-coarse:min-h-11",
  sm: "min-h-8 px-2.5 py-1 text-xs max-sm:min-h-11 pointer-coarse:min-h-11",
} as const;

export function Button({
  variant = "primary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: keyof typeof SIZES }) {
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:cursor-not-allowed ${SIZES[size]} ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
