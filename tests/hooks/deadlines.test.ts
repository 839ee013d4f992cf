/**
 * One timer for the time limit of every call in flight (hooks/deadlines.ts): each call expires
 * at its own deadline, a finished call never expires, and no timer is left once nothing is in
 * flight. Jest's fake timers drive both the timer and the clock.
 */
import { createDeadlines } from "../../hooks/deadlines";

const LIMIT_MS = 1000;

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** A deadline keeper on the fake clock, and what expired when (ms since the test began, and the elapsed time it was given). */
function keeper() {
  const began = Date.now();
  const deadlines = createDeadlines(LIMIT_MS, () => Date.now());
  const expired: { call: string; at: number; elapsedMs: number }[] = [];
  const start = (call: string) =>
    deadlines.start((elapsedMs) => expired.push({ call, at: Date.now() - began, elapsedMs }));
  return { deadlines, expired, start };
}

describe("createDeadlines", () => {
  it("expires each call at its own deadline, in the order the calls started, with the time since its start", () => {
    const { expired, start } = keeper();
    start("a");
    jest.advanceTimersByTime(300);
    start("b");
    jest.advanceTimersByTime(400);
    start("c");
    jest.advanceTimersByTime(2000);
    expect(expired).toEqual([
      { call: "a", at: 1000, elapsedMs: 1000 },
      { call: "b", at: 1300, elapsedMs: 1000 },
      { call: "c", at: 1700, elapsedMs: 1000 },
    ]);
  });

  it("never expires a call that finished, and still expires the ones after it", () => {
    const { deadlines, expired, start } = keeper();
    const finishA = start("a");
    jest.advanceTimersByTime(200);
    start("b");
    const finishC = start("c");
    finishA();
    finishC();
    expect(deadlines.pending()).toBe(1);
    jest.advanceTimersByTime(5000);
    expect(expired.map((e) => [e.call, e.at])).toEqual([["b", 1200]]);
    expect(deadlines.pending()).toBe(0);
  });

  it("holds one timer however many calls are in flight", () => {
    const { deadlines, start } = keeper();
    const finishes = Array.from({ length: 100 }, (_, i) => start(`call ${i}`));
    expect(deadlines.pending()).toBe(100);
    expect(jest.getTimerCount()).toBe(1);
    finishes.forEach((finish) => finish());
    expect(deadlines.pending()).toBe(0);
  });

  it("leaves no timer once it fired with nothing in flight: an idle process wakes at most once after its last call", () => {
    const { expired, start } = keeper();
    for (let i = 0; i < 50; i++) {
      const finish = start(`call ${i}`);
      jest.advanceTimersByTime(10);
      finish();
    }
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(LIMIT_MS);
    expect(jest.getTimerCount()).toBe(0);
    expect(expired).toEqual([]);
  });

  it("is set again by the next call after it went idle", () => {
    const { expired, start } = keeper();
    start("a")();
    jest.advanceTimersByTime(LIMIT_MS);
    expect(jest.getTimerCount()).toBe(0);
    start("b");
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(LIMIT_MS);
    expect(expired.map((e) => e.call)).toEqual(["b"]);
  });
});
