/**
 * lib/config/shared-state.ts on a kept (frozen) base: the backend references of its provider
 * configs are read once, and with no variable set its whole pod-local state is kept per line.
 * Both must be what a fresh parse of the same text gives (the plain path, never frozen), for
 * every bundled config on every line, asked twice.
 */
import { checkedBase } from "../../../lib/config/base";
import type { ConfigDoc } from "../../../lib/config/doc";
import { podLocalState } from "../../../lib/config/shared-state";
import { parseYaml } from "../../../lib/config/yaml";
import { bundledBaseConfig, bundledNames } from "../../../lib/distributions/bundled";
import { RELEASES } from "../../../lib/distributions/table";

const cases = bundledNames().flatMap((name) =>
  RELEASES.flatMap((line) => {
    const text = bundledBaseConfig(name, line);
    return text === undefined ? [] : RELEASES.map((release) => [`${name}-${line}`, release, text] as const);
  }),
);

function docOf(base: string | object): ConfigDoc {
  const checked = checkedBase(base);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.doc;
}

/** A fresh parse: not kept, so nothing of it is frozen or remembered. */
function freshDoc(text: string): ConfigDoc {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return docOf(parsed.value as object);
}

/** No variable set; a Secret-backed one; one that switches providers on. */
const ENVS = [
  ["no variable set", new Map<string, string | null>()],
  ["a Secret-backed variable", new Map<string, string | null>([["POSTGRES_PASSWORD", null]])],
  [
    "a plain variable",
    new Map<string, string | null>([
      ["ENABLE_CHROMADB", "1"],
      ["CHROMADB_URL", "http://127.0.0.1:8000"],
    ]),
  ],
] as const;

describe("podLocalState of a kept base", () => {
  it.each(cases)("%s on the %s line: the plain path's state, asked twice", (_file, release, text) => {
    const kept = docOf(text);
    expect(Object.isFrozen(kept)).toBe(true);
    const fresh = freshDoc(text);
    for (const [, env] of ENVS) {
      const expected = podLocalState(fresh, release, env);
      expect([podLocalState(kept, release, env), podLocalState(kept, release, env)]).toEqual([expected, expected]);
    }
  });

  it("covers configs with state kept in the pod", () => {
    expect(cases.some(([, release, text]) => podLocalState(docOf(text), release, new Map()).length > 0)).toBe(true);
  });
});
