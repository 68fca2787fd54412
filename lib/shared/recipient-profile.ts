/**
 * An order's `recipient_profile_id` names the profile that receives what it settles (the base
 * of a buy, the quote of a sell). Naming another profile than the order's own moves money
 * between profiles as a transfer does, so the desk's controls weigh such an order as the
 * transfer it also is (docs/controls.md, "Orders that settle into another profile").
 */

/** The recipient profile when it is not the order's own; undefined when the order settles into its own profile. */
export function otherRecipientOf(profileId: string, request: { recipient_profile_id?: unknown }): string | undefined {
  const recipient = request.recipient_profile_id;
  return typeof recipient === "string" && recipient !== "" && recipient !== profileId ? recipient : undefined;
}

/**
 * A LIKE pattern for a stored request (JSON text, as JSON.stringify writes it) that may name a
 * recipient profile: a coarse filter the database runs before otherRecipientOf decides. Every
 * order naming one matches it.
 */
export const NAMES_A_RECIPIENT = '%"recipient_profile_id":%';
