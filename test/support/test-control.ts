/**
 * The harness's side of the runtime's test control (lib/server/ops/test-control.ts), for an app
 * started with `startApp(env, dir, { control: true })`: a file that needs its own settings or a
 * clean state resets the shared app instead of starting a process, and moves its clock instead
 * of waiting.
 */
export interface TestControl {
  /** The runtime afresh: the app's start settings with `settings` over them, an empty DATA_DIR. */
  reset(settings?: Record<string, string>): Promise<ControlState>;
  /** Moves the runtime's clock forward by `ms`: what fell due (expiries, idle ends, sweeps) happens now. */
  advance(ms: number): Promise<ControlState>;
  /** Starts or stops the sandbox's market maker. */
  marketMaker(on: boolean): Promise<ControlState>;
  state(): Promise<ControlState>;
}

export interface ControlState {
  now: string;
  clock_offset_ms: number;
  data_dir: string;
  database: "sqlite" | "postgres";
}

/** The path the control answers on (lib/server/ops/test-control.ts's TEST_CONTROL_PATH). */
export const TEST_CONTROL_PATH = "/__test__/runtime";

export function testControl(url: string, secret: string): TestControl {
  const send = async (method: string, command?: object): Promise<ControlState> => {
    const res = await fetch(`${url}${TEST_CONTROL_PATH}`, {
      method,
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: command && JSON.stringify(command),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`the test control answered ${res.status}: ${body.detail ?? JSON.stringify(body)}`);
    return body as ControlState;
  };
  return {
    reset: (settings = {}) => send("POST", { op: "reset", settings }),
    advance: (ms) => send("POST", { op: "advance", ms }),
    marketMaker: (on) => send("POST", { op: "market-maker", on }),
    state: () => send("GET"),
  };
}
