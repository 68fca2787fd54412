import { describe, expect, it } from "vitest";
import {
  addNotice,
  dismissNotice,
  markRead,
  NOTICES_KEPT,
  readNotices,
  unreadCount,
  type Notice,
} from "@/lib/client/notice-log";

const log = (...titles: string[]): Notice[] =>
  titles.reduce<Notice[]>((all, title, i) => addNotice(all, { title }, `n${i}`, 1_000 + i), []);

describe("the session's notices", () => {
  it("newest first, unread, each with its time", () => {
    const notices = log("first", "second");
    expect(notices.map((n) => [n.title, n.at, n.read])).toEqual([
      ["second", 1_001, false],
      ["first", 1_000, false],
    ]);
    expect(unreadCount(notices)).toBe(2);
  });

  it("one event, one notice: a notice with an earlier one's key takes its place, as the newest", () => {
    let notices = addNotice([], { title: "Order 1 cancelled", key: "order-end:1" }, "a", 1);
    notices = addNotice(notices, { title: "other" }, "b", 2);
    notices = addNotice(notices, { title: "Order 1 cancelled (again)", key: "order-end:1" }, "c", 3);
    expect(notices.map((n) => n.id)).toEqual(["c", "b"]);
  });

  it("keeps the newest NOTICES_KEPT", () => {
    const many = log(...Array.from({ length: NOTICES_KEPT + 3 }, (_, i) => `n${i}`));
    expect(many).toHaveLength(NOTICES_KEPT);
    expect(many.at(-1)!.title).toBe("n3");
  });

  it("read one (its toast closed) or all (the list opened); dismissed, gone", () => {
    const notices = log("a", "b", "c");
    expect(markRead(notices, "n1").map((n) => n.read)).toEqual([false, true, false]);
    expect(unreadCount(markRead(notices))).toBe(0);
    expect(dismissNotice(notices, "n1").map((n) => n.title)).toEqual(["c", "a"]);
  });

  it("reads back what it kept, and nothing from a missing, broken or foreign value", () => {
    const notices = markRead(log("a", "b"), "n0");
    expect(readNotices(JSON.stringify(notices))).toEqual(notices);
    expect(readNotices(null)).toEqual([]);
    expect(readNotices("{not json")).toEqual([]);
    expect(readNotices(JSON.stringify({ title: "a" }))).toEqual([]);
    expect(readNotices(JSON.stringify([{ id: "x", title: "a", at: "yesterday", read: false }, notices[0]]))).toEqual([
      notices[0],
    ]);
  });
});
