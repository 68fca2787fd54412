"use client";

import type { ReactNode } from "react";
import { get, useFormContext, type FieldErrors, type RegisterOptions } from "react-hook-form";
import { groupAmountInput } from "@/lib/shared/format";
import { Button } from "../ui/button";
import { Field, inputClass } from "../ui/field";

/** The message of the rule that refused the field at `name`, if any. */
const errorOf = (errors: FieldErrors, name: string): string | undefined =>
  (get(errors, name) as { message?: string } | undefined)?.message;

interface Common {
  name: string;
  label: string;
  hint?: ReactNode;
}

/**
 * A labelled text input bound to the surrounding form, with its rule's error. `unit`
 * "amount" shows the typed amount grouped once the person leaves it ("10,000,000"); "%"
 * shows the sign inside the field.
 */
export function TextField({
  name,
  label,
  hint,
  type = "text",
  inputMode,
  step,
  mono = false,
  unit,
}: Common & {
  type?: string;
  inputMode?: "decimal" | "numeric";
  step?: number;
  mono?: boolean;
  unit?: "amount" | "%";
}) {
  const { register, formState, getValues, setValue } = useFormContext();
  const onBlur =
    unit === "amount"
      ? () => {
          const typed = String(getValues(name) ?? "");
          const grouped = groupAmountInput(typed);
          if (grouped !== typed) setValue(name, grouped, { shouldDirty: true });
        }
      : undefined;
  return (
    <Field label={label} hint={hint} error={errorOf(formState.errors, name)}>
      {({ id, describedBy, invalid }) => {
        const input = (
          <input
            id={id}
            type={type}
            step={step}
            inputMode={inputMode}
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            className={`${inputClass(invalid)} ${mono ? "font-mono" : ""} ${unit === "%" ? "pr-8" : ""}`}
            {...register(name, { onBlur })}
          />
        );
        if (unit !== "%") return input;
        return (
          <div className="relative">
            {input}
            <span
              aria-hidden
              className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-ink-muted"
            >
              %
            </span>
          </div>
        );
      }}
    </Field>
  );
}

/** A labelled select bound to the surrounding form. */
export function SelectField({
  name,
  label,
  hint,
  options,
  placeholder,
  registerOptions,
}: Common & {
  options: { value: string; label: string }[];
  placeholder?: string;
  registerOptions?: RegisterOptions;
}) {
  const { register, formState } = useFormContext();
  return (
    <Field label={label} hint={hint} error={errorOf(formState.errors, name)}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          className={inputClass(invalid)}
          {...register(name, registerOptions)}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The idempotence key, prefilled and editable, with a button for a fresh one. */
export function RefIdField({ what, fresh }: { what: string; fresh: () => string }) {
  const { register, setValue, formState } = useFormContext();
  return (
    <Field
      label="Ref ID"
      error={formState.errors.ref_id?.message as string | undefined}
      hint={`Idempotence key: a retry with the same ref_id never makes a second ${what}.`}
    >
      {({ id, describedBy, invalid }) => (
        <div className="flex gap-2">
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            className={`${inputClass(invalid)} font-mono`}
            {...register("ref_id")}
          />
          <Button variant="secondary" onClick={() => setValue("ref_id", fresh())}>
            New
          </Button>
        </div>
      )}
    </Field>
  );
}
