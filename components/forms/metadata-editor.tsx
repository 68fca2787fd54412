"use client";

import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { charCount, METADATA_MAX_CHARS, METADATA_MAX_PAIRS } from "@/lib/spec/limits";
import { Button } from "../ui/button";
import { inputClass } from "../ui/field";
import type { MetadataRow } from "./metadata";

interface ErrorNode {
  message?: string;
  root?: { message?: string };
  [key: string]: unknown;
}

/** Every message under the field: the list's own rule and each refused key or value. */
function messagesOf(node: ErrorNode | undefined): string[] {
  if (!node) return [];
  const own = [node.message, node.root?.message].filter((m): m is string => Boolean(m));
  const nested = Object.entries(node)
    .filter(([k]) => k !== "message" && k !== "root" && k !== "type" && k !== "ref")
    .flatMap(([, v]) => (v && typeof v === "object" ? messagesOf(v as ErrorNode) : []));
  return [...new Set([...own, ...nested])];
}

function Counter({ text }: { text: string }) {
  const n = charCount(text);
  return (
    <span
      aria-hidden
      className={`text-xs tabular-nums ${n > METADATA_MAX_CHARS ? "font-semibold text-sell" : "text-ink-faint"}`}
    >
      {n}/{METADATA_MAX_CHARS}
    </span>
  );
}

/** Key/value pairs with the service's limits shown as you type: 6 pairs, 100 characters each. */
export function MetadataEditor({ name, label }: { name: "metadata" | "recipient_metadata"; label: string }) {
  const { control, register, formState } = useFormContext<Record<string, MetadataRow[]>>();
  const { fields, append, remove } = useFieldArray({ control, name });
  const rows = useWatch({ control, name }) ?? [];
  const messages = messagesOf(formState.errors[name] as ErrorNode | undefined);
  const full = fields.length >= METADATA_MAX_PAIRS;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">
        {label}{" "}
        <span className="font-normal text-ink-muted">
          ({fields.length}/{METADATA_MAX_PAIRS} pairs)
        </span>
      </legend>
      {fields.map((field, i) => (
        <div key={field.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
          <div>
            <input
              aria-label={`${label} key ${i + 1}`}
              className={inputClass(false)}
              {...register(`${name}.${i}.key`)}
            />
            <Counter text={rows[i]?.key ?? ""} />
          </div>
          <div>
            <input
              aria-label={`${label} value ${i + 1}`}
              className={inputClass(false)}
              {...register(`${name}.${i}.value`)}
            />
            <Counter text={rows[i]?.value ?? ""} />
          </div>
          <Button variant="ghost" onClick={() => remove(i)} aria-label={`Remove ${label.toLowerCase()} pair ${i + 1}`}>
            ✕
          </Button>
        </div>
      ))}
      <Button variant="secondary" disabled={full} onClick={() => append({ key: "", value: "" })}>
        Add pair
      </Button>
      {full && <p className="text-xs text-ink-muted">The service stores at most {METADATA_MAX_PAIRS} pairs.</p>}
      {messages.map((m) => (
        <p key={m} role="alert" className="text-xs font-medium text-sell">
          {m}
        </p>
      ))}
    </fieldset>
  );
}
