import type { ComponentProps } from "react";

const VARIANTS = {
  primary: "bg-brand text-white hover:bg-brand-hover disabled:bg-brand/60",
  secondary: "border border-slate-300 bg-surface text-ink hover:bg-surface-raised disabled:text-ink-faint",
  danger: "bg-sell text-white hover:bg-sell/90 disabled:bg-sell/50",
  ghost: "text-brand hover:bg-brand-soft disabled:text-ink-faint",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

/** "sm" fits a table row without making it taller. */
const SIZES = { md: "px-3 py-2 text-sm", sm: "px-2 py-0.5 text-xs" } as const;

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
