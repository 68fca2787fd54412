/** The webhooks page's queries: the list, and each webhook's deliveries (never a secret: those stay in the form's state). */
export const webhookKeys = {
  list: ["webhooks", "list"] as const,
  deliveries: (id: string) => ["webhooks", "deliveries", id] as const,
};
