import type { Problem } from "@/lib/spec/problem";

/**
 * Profiles by name in the service's own messages: "insufficient LINK funds in profile 4406aa9c-…"
 * reads "insufficient LINK funds in Operations reserve". The activity list names them on the
 * server, so its page and its CSV say the same.
 */

/** A profile's nickname; an id the dashboard does not know comes back as itself. */
export type Nickname = (profileId: string) => string;

/** "profile " before a UUID goes with it: the nickname says it is a profile. */
const PROFILE_UUID = /(?:\bprofile )?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi;

/** True when `text` holds a UUID: only then is it worth asking the service for the profiles' names. */
export const mentionsAnId = (text: string | undefined): boolean => Boolean(text?.match(PROFILE_UUID));

/** `text` with each UUID the dashboard knows as a profile replaced by the profile's nickname; other ids kept. */
export function nameProfiles(text: string, nickname: Nickname): string {
  return text.replace(PROFILE_UUID, (found, id: string) => {
    const name = nickname(id);
    return name === id ? found : name;
  });
}

/** The problem with its title and detail naming profiles; its meta keeps the ids for machines. */
export function namedProblem(p: Problem, nickname: Nickname): Problem {
  return {
    ...p,
    title: nameProfiles(p.title, nickname),
    ...(p.detail === undefined ? {} : { detail: nameProfiles(p.detail, nickname) }),
  };
}
