import { afterAll } from "vitest";
import { releaseLane } from "./lanes";

/**
 * setupFiles of the built app's projects: a file gives its lane back when it ends. Its own
 * afterAll hooks run first (vitest runs after-hooks last registered first), still on the lane.
 */
afterAll(releaseLane);
