"use client";

import type { RefObject } from "react";
import { useFormContext } from "react-hook-form";
import { formatAmount } from "@/lib/shared/format";
import { FIELD_LABELS, quantityRuleFor } from "@/lib/spec/order-rules";
import type { TicketValues } from "../orders/ticket-form";

/**
 * Fills the ticket's price from a price picked on the ladder: the limit price, or the stop
 * price of a stop-market order; a market order takes none, and an order under review keeps
 * the price it shows. Answers what it did, in words. Undefined outside the ticket's form.
 * `ticketPart` is any element inside the ticket's <form>, whose fields say whether it is
 * under review (the ladder itself is drawn elsewhere, through a portal).
 */
export function useTicketPricePick(ticketPart: RefObject<HTMLElement | null>): ((price: string) => string) | undefined {
  const form = useFormContext<TicketValues>() as ReturnType<typeof useFormContext<TicketValues>> | null;
  if (!form) return undefined;
  return (price) => {
    const { type, side } = form.getValues();
    const field = (["price", "stop_price"] as const).find((f) => quantityRuleFor(type, side).required.includes(f));
    if (!field) return "A market order takes no price: choose a limit or stop type to use a price from the book.";
    // The ticket disables its fields while the order is reviewed.
    const input = ticketPart.current?.closest("form")?.elements.namedItem(field);
    if (input instanceof HTMLElement && input.matches(":disabled"))
      return "The order is under review: Edit it to change its price.";
    // Checked now only once Review was pressed, as the ticket checks every field.
    form.setValue(field, price, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    return `${FIELD_LABELS[field]} set to ${formatAmount(price, { min: 2 })}.`;
  };
}
