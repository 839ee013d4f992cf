import { perFrozen } from "../../lib/remembered";

describe("perFrozen()", () => {
  it("computes a frozen object's fact once, a mutable object's every time", () => {
    let calls = 0;
    const keysOf = perFrozen((o: object) => (calls++, Object.keys(o)));
    const frozen = Object.freeze({ a: 1 });
    const mutable: { [k: string]: number } = { a: 1 };
    expect([keysOf(frozen), keysOf(frozen)]).toEqual([["a"], ["a"]]);
    expect(calls).toBe(1);
    keysOf(mutable);
    mutable.b = 2;
    expect(keysOf(mutable)).toEqual(["a", "b"]);
    expect(calls).toBe(3);
  });
});
