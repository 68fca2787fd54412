"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { keys, type Balance } from "@/lib/client/queries";
import type { FundsContext } from "./funds";

/** The balances the page already holds (useBalances), read when the form is checked. */
export function useFundsContext(nickname: (profileId: string) => string): FundsContext {
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      balancesOf: (profileId: string) => queryClient.getQueryData<Balance[]>(keys.balances(profileId)),
      nickname,
    }),
    [queryClient, nickname],
  );
}
