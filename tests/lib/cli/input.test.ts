/**
 * What every command that takes files reads: `kind: List` as kubectl prints it, a CR without a
 * name refused, invalid YAML (alias bombs included) called invalid YAML, and Secret references
 * checked against the Secrets of the same input.
 */
import { parse, parseAllDocuments } from "yaml";
import { llsd } from "../../cli-helpers";

const cr = (name: string, spec = "{distribution: {name: starter}}") =>
  `apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: ${name}}\nspec: ${spec}\n`;
const asList = (...items: string[]) =>
  `apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ""}\nitems:\n${items
    .map((i) => `- ${i.trimEnd().replace(/\n/g, "\n  ")}\n`)
    .join("")}`;
const twoCrs = asList(cr("one"), cr("two"));

const FILE_COMMANDS = [
  ["validate"],
  ["render"],
  ["request", "sync"],
  ["convert", "--to", "v1alpha1"],
  ["migrate"],
] as const;

describe("kind: List", () => {
  it("llsd validate checks every item", () => {
    expect(llsd(["validate", "l.yaml"], { "l.yaml": twoCrs }).stdout).toBe(
      "l.yaml: llamastack.io/v1alpha2 one: valid\nl.yaml: llamastack.io/v1alpha2 two: valid\n",
    );
  });

  it("llsd render renders every item", () => {
    const run = llsd(["render", "l.yaml"], { "l.yaml": twoCrs });
    expect(run.code).toBe(0);
    expect(run.stderr.match(/^note: (one|two):/gm)).toEqual(["note: one:", "note: two:"]);
  });

  it("llsd request sync takes the first item, and the List's Secrets as related objects", () => {
    const secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: v}\n";
    const run = llsd(["request", "sync", "l.yaml"], { "l.yaml": asList(secret, cr("one")) });
    const body = JSON.parse(run.stdout) as { parent: { metadata: { name: string } }; related: object };
    expect([run.code, body.parent.metadata.name, Object.keys(body.related)]).toEqual([
      0,
      "one",
      ["Secret.v1", "ConfigMap.v1"],
    ]);
    expect(JSON.stringify(body.related)).toContain('"default/s"');
  });

  it.each([["convert", "--to", "v1alpha1"], ["migrate"]])(
    "llsd %s prints a List of the items rewritten",
    (...command) => {
      const run = llsd([...command, "l.yaml"], { "l.yaml": twoCrs });
      const out = parse(run.stdout) as { kind: string; items: { apiVersion: string; metadata: { name: string } }[] };
      expect(run.code).toBe(0);
      expect(out.kind).toBe("List");
      expect(out.items.map((i) => i.metadata.name)).toEqual(["one", "two"]);
      if (command[0] === "convert")
        expect(out.items.map((i) => i.apiVersion)).toEqual(["llamastack.io/v1alpha1", "llamastack.io/v1alpha1"]);
    },
  );
});

describe("a CR without metadata.name", () => {
  it.each([["validate"], ["render"], ["request", "sync"]])(
    "llsd %s refuses it with the field and the fix",
    (...command) => {
      const unnamed =
        "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nspec: {distribution: {name: starter}}\n";
      const run = llsd([...command, "u.yaml"], { "u.yaml": unnamed });
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain(
        "metadata.name: required: every LlamaStackDistribution needs a name; add metadata: {name: my-llsd}",
      );
    },
  );

  it("generateName is a name", () => {
    const generated = cr("x").replace("metadata: {name: x}", "metadata: {generateName: llsd-}");
    expect(llsd(["validate", "g.yaml"], { "g.yaml": generated }).code).toBe(0);
  });
});

describe("invalid YAML", () => {
  const bomb = [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ..."bcdef".split("").map((n, i) => `${n}: &${n} [${Array(9).fill(`*${"abcdef"[i]}`).join(", ")}]`),
  ].join("\n");
  const unresolved = "apiVersion: v1\nkind: ConfigMap\ndata: *nowhere\n";

  it.each(
    FILE_COMMANDS.flatMap((command) => [
      [command, "an alias bomb", bomb, "Excessive alias count"],
      [command, "an unresolved alias", unresolved, "Unresolved alias"],
    ]),
  )("llsd %j: %s is invalid YAML with the file and the parser's reason, exit 1", (command, _what, text, reason) => {
    const run = llsd([...command, "x.yaml"], { "x.yaml": `${cr("ok")}---\n${text}\n` });
    const said = `${run.stdout}${run.stderr}`;
    expect(run.code).toBe(1);
    expect(said).toContain(`x.yaml: document 2: invalid YAML: ${reason}`);
    expect(said).not.toContain("internal error");
  });

  it("the alias bomb really is one: the parser refuses to expand it", () => {
    expect(() => {
      parseAllDocuments(bomb)[0]?.toJS();
    }).toThrow(/Excessive alias count/);
  });
});

describe("Secret references checked against the Secrets of the same input", () => {
  const secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: vllm-creds}\nstringData: {token: t}\n";
  const using = (name: string, key: string) =>
    cr(
      "demo",
      `{distribution: {name: starter}, providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {name: ${name}, key: ${key}}}}}`,
    );

  it.each([
    ["a Secret and key of the input", "vllm-creds", "token", undefined],
    ["a Secret not in the input, nor near one", "other-creds", "token", undefined],
    [
      "a misspelled key",
      "vllm-creds",
      "tokne",
      'spec.providers.inference.apiKey: Secret vllm-creds has no key "tokne" (it has "token"): did you mean "token"?',
    ],
    [
      "a key the Secret lacks",
      "vllm-creds",
      "password",
      'spec.providers.inference.apiKey: Secret vllm-creds has no key "password" (it has "token"); add the key to the Secret or fix the reference',
    ],
    [
      "a misspelled Secret name",
      "vlm-creds",
      "token",
      'spec.providers.inference.apiKey: Secret vlm-creds is not in the input: did you mean "vllm-creds"?',
    ],
  ])("%s", (_title, name, key, problem) => {
    const file = `${secret}---\n${using(name, key)}`;
    const validate = llsd(["validate", "s.yaml"], { "s.yaml": file });
    const render = llsd(["render", "s.yaml"], { "s.yaml": file });
    if (problem === undefined) {
      expect([validate.code, render.code]).toEqual([0, 0]);
      return;
    }
    expect([validate.code, render.code, render.stdout]).toEqual([1, 1, ""]);
    expect(validate.stdout).toContain(`  ${problem}\n`);
    expect(render.stderr).toContain(`${problem}\n`);
  });

  it("a v1alpha1 env var from a Secret of the input is checked too, at its stored path", () => {
    const v1 = `apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: old}\nspec:\n  server:\n    distribution: {name: starter}\n    containerSpec:\n      env:\n      - name: VLLM_API_TOKEN\n        valueFrom: {secretKeyRef: {name: vllm-creds, key: tokn}}\n`;
    const run = llsd(["validate", "v.yaml"], { "v.yaml": `${secret}---\n${v1}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'spec.workload.overrides.env[0].valueFrom.secretKeyRef: Secret vllm-creds has no key "tokn"',
    );
  });
});
