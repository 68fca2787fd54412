"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { Problem } from "@/lib/spec/problem";
import { newRefId } from "@/lib/ref-id";
import { problemOf } from "@/lib/client/api";
import { showFieldErrors } from "./server-problem";
import type { FormOutput } from "./spec-resolver";

/**
 * Check → review → send, shared by the order ticket and the transfer form, whose resolvers
 * (specResolver) hand over the checked request as `output.request`. The ref_id is
 * kept after a failure (a retry is the same create to the service) and renewed after a
 * success (the next create is a new one).
 */
export function useCreateFlow<
  Values extends FieldValues & { ref_id: string },
  Output extends FormOutput<unknown>,
  Created,
>(
  form: UseFormReturn<Values, unknown, Output>,
  send: (output: Output) => Promise<Created>,
  refresh: readonly string[],
) {
  const [review, setReview] = useState<Output | null>(null);
  const [result, setResult] = useState<Created | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: (created) => {
      setResult(created);
      setReview(null);
      form.setValue("ref_id" as never, newRefId() as never);
      for (const key of refresh) void queryClient.invalidateQueries({ queryKey: [key] });
    },
    onError: (error) => {
      const p = problemOf(error);
      setProblem(p);
      showFieldErrors(form, p);
    },
  });
  const openReview = form.handleSubmit((output) => {
    setProblem(null);
    setResult(null);
    setReview(output);
  });
  return {
    review,
    result,
    problem,
    pending: mutation.isPending,
    openReview,
    confirm: () => review && mutation.mutate(review),
    edit: () => setReview(null),
  };
}
