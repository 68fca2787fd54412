import { describe, expect, it } from "vitest";
import { personActivity } from "@/lib/client/person-activity";

describe("the person's activity on the page (issue 16, finding 13)", () => {
  it("is told once per input, so background polls without an input since carry nothing", () => {
    const page = new EventTarget();
    const activity = personActivity(page);
    // An open tab nobody touches: every poll goes unmarked.
    expect([activity.take(), activity.take(), activity.take()]).toEqual([false, false, false]);
    page.dispatchEvent(new Event("pointerdown"));
    expect(activity.take()).toBe(true);
    expect(activity.take()).toBe(false);
    page.dispatchEvent(new Event("keydown"));
    page.dispatchEvent(new Event("wheel"));
    expect([activity.take(), activity.take()]).toEqual([true, false]);
    // Moving the pointer over the page is not doing something.
    page.dispatchEvent(new Event("pointermove"));
    expect(activity.take()).toBe(false);
  });

  it("is never, off a page (the server rendering a client component)", () => {
    expect(personActivity(undefined).take()).toBe(false);
  });
});
