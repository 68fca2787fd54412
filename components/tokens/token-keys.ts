/** The tokens page's one query: the list, never a secret (those stay in the form's state). */
export const tokenKeys = {
  list: ["tokens", "list"] as const,
};
