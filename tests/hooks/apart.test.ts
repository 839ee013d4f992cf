/** hooks/apart.ts: a hook's computation in a promise job of its own. */
import { apart } from "../../hooks/apart";

describe("apart", () => {
  it.each([
    ["a value", (n: number) => n * 2, 42],
    ["a promise", (n: number) => Promise.resolve(n * 2), 42],
  ])("resolves to what the work returns: %s", async (_what, work, expected) => {
    await expect(apart(work, 21)).resolves.toBe(expected);
  });

  it("turns a throw into a rejection, never a throw at the call", async () => {
    const work = (): never => {
      throw new Error("bug");
    };
    let answer: Promise<never> | undefined;
    expect(() => (answer = apart(work, undefined))).not.toThrow();
    await expect(answer).rejects.toThrow("bug");
  });

  it("runs the work in a later job, not inside the caller", async () => {
    const order: string[] = [];
    const done = apart(() => order.push("work"), undefined);
    order.push("caller");
    await done;
    expect(order).toEqual(["caller", "work"]);
  });
});
