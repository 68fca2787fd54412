/**
 * The profile a person last chose in the order ticket, remembered in this browser under their
 * signed-in email (as the time zone is, time-zone.tsx): their next load starts from it, and
 * someone else signing in on the same browser does not.
 */
type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const keyOf = (email: string) => `dashboard.ticket-profile:${email}`;

/** Remembers the person's choice; choosing no profile forgets it. */
export function rememberTicketProfile(email: string, profileId: string, store: Store = localStorage): void {
  if (profileId) store.setItem(keyOf(email), profileId);
  else store.removeItem(keyOf(email));
}

/** The person's remembered profile while it is still one of `profiles`; otherwise none. */
export function rememberedTicketProfile(
  email: string,
  profiles: readonly { id: string }[],
  store: Store = localStorage,
): string | undefined {
  const id = store.getItem(keyOf(email));
  return id && profiles.some((p) => p.id === id) ? id : undefined;
}
