import type { ComponentProps } from "react";

const VARIANTS = {
  primary: "bg-brand text-white hover:bg-brand-hover disabled:bg-brand/60",
  secondary: "border border-slate-300 bg-surface text-ink hover:bg-surface-raised disabled:text-ink-faint",
  danger: "bg-sell text-white hover:bg-sell/90 disabled:bg-sell/50",
  ghost: "text-brand hover:bg-brand-soft disabled:text-ink-faint",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
