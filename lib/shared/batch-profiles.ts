import type { Profile } from "./service-shapes";

/** A profile of the desk, as a batch names it: by id, or (in a CSV file) by nickname. */
export type DeskProfile = Pick<Profile, "id" | "nickname">;

/** The desk's profiles, looked up by id and by nickname (trimmed, any case). */
export interface ProfileIndex {
  ids: ReadonlySet<string>;
  byName: ReadonlyMap<string, string[]>;
  example?: DeskProfile;
}

const nameKey = (name: string) => name.trim().toLowerCase();

export function indexProfiles(profiles: readonly DeskProfile[]): ProfileIndex {
  const byName = new Map<string, string[]>();
  for (const p of profiles) byName.set(nameKey(p.nickname), [...(byName.get(nameKey(p.nickname)) ?? []), p.id]);
  return { ids: new Set(profiles.map((p) => p.id)), byName, example: profiles[0] };
}

/**
 * The id of the profile `text` names (an id first, then a nickname when `byName`), or why
 * none: unknown, or a nickname two profiles share. `label` is the form's ("From profile").
 */
export function profileNamed(
  text: string,
  index: ProfileIndex,
  byName: boolean,
  label: string,
): { id: string } | { message: string } {
  if (index.ids.has(text)) return { id: text };
  const named = byName ? (index.byName.get(nameKey(text)) ?? []) : [];
  if (named.length === 1) return { id: named[0]! };
  if (named.length > 1) {
    return { message: `${label} "${text}" is the nickname of ${named.length} profiles: write the id of the one meant` };
  }
  const { example } = index;
  const how = byName ? "write its nickname or id" : "use its id";
  const hint = example ? `${how}, such as "${byName ? example.nickname : example.id}"` : "the desk has no profiles";
  return { message: `${label} "${text}" is not one of the desk's profiles: ${hint}` };
}
