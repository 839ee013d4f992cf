import { perFrozen, perText } from "../../lib/remembered";

describe("perText()", () => {
  it("computes each text once, an undefined answer included", () => {
    const calls: string[] = [];
    const lookup = perText((text) => (calls.push(text), text === "none" ? undefined : text.length), 10);
    expect([lookup("abc"), lookup("none"), lookup("abc"), lookup("none")]).toEqual([3, undefined, 3, undefined]);
    expect(calls).toEqual(["abc", "none"]);
  });

  it("empties itself when full, then computes again", () => {
    const calls: string[] = [];
    const lookup = perText((text) => (calls.push(text), text.toUpperCase()), 2);
    for (const text of ["a", "b", "c", "a"]) lookup(text);
    // "c" found the table full (a, b) and emptied it: "a" is computed again.
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });
});

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
