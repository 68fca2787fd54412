import { describe, expect, it } from "vitest";
import {
  answerHeaders,
  createFlowReducer,
  EDITING,
  flowView,
  type CreateFlowEvent,
  type CreateFlowState,
} from "@/components/forms/create-flow-state";
import type { Approval } from "@/lib/shared/approval";
import { CONFIRM_PRICE_GUARD_HEADER, PRICE_GUARD_TYPE } from "@/lib/shared/price-guard";
import { CONFIRM_REPEAT_HEADER, REPEAT_QUESTION_TYPE } from "@/lib/shared/repeats";
import type { Problem } from "@/lib/spec/problem";

type Output = { request: { ref_id: string } };
type Created = { id: string };
type State = CreateFlowState<Output, Created>;
type Event = CreateFlowEvent<Output, Created>;

const output: Output = { request: { ref_id: "ref-1" } };
const created: Created = { id: "order-1" };
const approval = { id: "approval-1", status: "PENDING" } as Approval;
const problemOf = (status: number, type = "about:blank", meta?: Record<string, unknown>): Problem => ({
  type,
  title: `Status ${status}`,
  status,
  detail: "",
  ...(meta && { meta }),
});
const timeout = problemOf(504);
const refused = problemOf(422);
const lost = problemOf(0);
const previous = { ref_id: "ref-0", created_at: "2026-01-01T00:00:00Z", seconds_ago: 3 };
const repeat = problemOf(409, REPEAT_QUESTION_TYPE, { previous });
const guard = { market: "BTCUSD", mid: "100", price: "120", deviation_percent: "20", limit_percent: "5" };
const pastGuard = problemOf(428, PRICE_GUARD_TYPE, guard);

const run = (events: Event[], from: State = EDITING): State =>
  events.reduce<State>((state, event) => createFlowReducer(state, event), from);
const review: Event = { type: "review", output };
const send: Event = { type: "send" };
const failed = (problem: Problem): Event => ({ type: "failed", problem });
/** The headers the send the state stands at carries. */
function headersSent(state: State): Record<string, string> {
  if (state.phase !== "sending") throw new Error(`not sending: ${state.phase}`);
  return answerHeaders(state.review);
}

describe("the create flow's states", () => {
  it("starts at the form, with nothing under it", () => {
    expect(flowView(EDITING)).toMatchObject({ review: null, result: null, held: null, problem: null, pending: false });
  });

  it("opens the review on a checked form, then sends it: pending until the answer", () => {
    const reviewing = run([review]);
    expect(reviewing).toMatchObject({ phase: "reviewing", review: { output } });
    expect(flowView(reviewing)).toMatchObject({ review: output, ask: "confirm", pending: false });
    const sending = run([send], reviewing);
    expect(sending.phase).toBe("sending");
    expect(flowView(sending)).toMatchObject({ review: output, pending: true });
  });

  it("closes the review on an answer: the record to follow, or the approval it awaits", () => {
    expect(run([review, send, { type: "answered", answer: created }])).toEqual({ phase: "result", created });
    const held = run([review, send, { type: "answered", answer: { approval } }]);
    expect(held).toEqual({ phase: "awaiting-approval", approval });
    expect(flowView(held)).toMatchObject({ review: null, held: approval, result: null });
  });

  it("keeps the review open to retry the same ref_id after a timeout or a lost connection, the problem shown", () => {
    for (const problem of [timeout, lost]) {
      const retry = run([review, send, failed(problem)]);
      expect(retry).toMatchObject({ phase: "retry", problem });
      expect(flowView(retry)).toMatchObject({ review: output, ask: "retry", problem });
      // The problem stays on screen while the same create is sent again.
      expect(flowView(run([send], retry))).toMatchObject({ ask: "retry", problem, pending: true });
    }
  });

  it("closes the review on a refusal (4xx) and shows the problem at the form", () => {
    const state = run([review, send, failed(refused)]);
    expect(state).toEqual({ phase: "problem", problem: refused });
    expect(flowView(state)).toMatchObject({ review: null, problem: refused });
  });

  it("asks about a repeat, and sends another with the earlier create's ref_id", () => {
    const asked = run([review, send, failed(repeat)]);
    expect(asked).toMatchObject({ phase: "repeat-question", previous });
    expect(flowView(asked)).toMatchObject({ ask: "repeat", repeat: previous, problem: null });
    const again = run([{ type: "send-another" }], asked);
    expect(again).toMatchObject({ phase: "sending", review: { confirmedOf: "ref-0" } });
    expect(headersSent(again)).toEqual({ [CONFIRM_REPEAT_HEADER]: "ref-0" });
  });

  it("answers 'don't send' by going back to the form, with nothing shown", () => {
    expect(run([review, send, failed(repeat), { type: "back" }])).toEqual(EDITING);
  });

  it("asks for the market past the price guard, and sends again with it as typed", () => {
    const asked = run([review, send, failed(pastGuard)]);
    expect(flowView(asked)).toMatchObject({ ask: "guard", guard });
    const typed = run([{ type: "send-past-guard", typed: "BTCUSD" }], asked);
    expect(typed).toMatchObject({ phase: "sending", review: { guardTyped: "BTCUSD" } });
    expect(flowView(typed).ask).toBe("confirm");
  });

  it("carries both answers into a retry of the same ref_id", () => {
    const retry = run([
      review,
      send,
      failed(pastGuard),
      { type: "send-past-guard", typed: "BTCUSD" },
      failed(repeat),
      { type: "send-another" },
      failed(timeout),
      send,
    ]);
    expect(headersSent(retry)).toEqual({
      [CONFIRM_REPEAT_HEADER]: "ref-0",
      [CONFIRM_PRICE_GUARD_HEADER]: "BTCUSD",
    });
  });

  it("gives the panel a new key for each answer that keeps it open", () => {
    const first = run([review]);
    const afterRetry = run([send, failed(timeout)], first);
    const afterRepeat = run([send, failed(repeat)], afterRetry);
    const keys = [first, afterRetry, afterRepeat].map((s) => flowView(s).reviewKey);
    expect(new Set(keys).size).toBe(3);
  });

  it("goes back to the form on Edit, keeping a retry's problem on screen", () => {
    expect(run([review, { type: "back" }])).toEqual(EDITING);
    expect(run([review, send, failed(timeout), { type: "back" }])).toEqual({ phase: "problem", problem: timeout });
  });

  it("clears what the last attempt came to when the next review opens", () => {
    for (const last of [
      run([review, send, { type: "answered", answer: created }]),
      run([review, send, failed(refused)]),
    ])
      expect(flowView(run([review], last))).toMatchObject({ result: null, held: null, problem: null, ask: "confirm" });
  });

  it("ignores what cannot happen where the flow stands: no second send, no answer without a send", () => {
    const sending = run([review, send]);
    for (const event of [send, review, { type: "back" }, { type: "send-another" }] as Event[])
      expect(createFlowReducer(sending, event)).toBe(sending);
    expect(createFlowReducer(EDITING, send)).toBe(EDITING);
    expect(createFlowReducer(EDITING, { type: "answered", answer: created })).toBe(EDITING);
    expect(createFlowReducer(EDITING, failed(timeout))).toBe(EDITING);
    const reviewing = run([review]);
    expect(createFlowReducer(reviewing, { type: "send-past-guard", typed: "BTCUSD" })).toBe(reviewing);
  });

  it("sends no answer headers on a first send", () => {
    expect(answerHeaders({ output, key: 1 })).toEqual({});
  });
});
