/**
 * The CLI behaves like a CLI: help for every command, one-line errors for files that cannot be
 * read, YAML syntax errors refused everywhere, misspelled kinds refused rather than skipped, and
 * v1alpha1 files converted (with a note) by the commands that need v1alpha2.
 */
import { parse } from "yaml";
import { llsd } from "../../cli-helpers";

const COMMANDS = ["render", "validate", "convert", "migrate", "request", "distributions"];
const v1 =
  "apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: old}\nspec:\n  server:\n    distribution: {name: starter}\n    containerSpec: {port: 8321}\n";
const v2 =
  "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: demo}\nspec: {distribution: {name: starter}}\n";
const broken =
  "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nspec: {distribution: {name: starter}\n";
const misspelled = v2.replace("kind: LlamaStackDistribution", "kind: LlamaStackDistributon");

describe("llsd <command> --help", () => {
  it.each(
    COMMANDS.flatMap((c) => [
      [c, "--help"],
      [c, "-h"],
      ["help", c],
    ]),
  )("%s %s prints that command's usage on stdout and exits 0", (...args) => {
    const run = llsd(args);
    const command = args[0] === "help" ? args[1] : args[0];
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: llsd ${command}\\b`));
    expect(run.stdout).toContain("Exit codes:");
    expect(run.stderr).toBe("");
  });

  it("llsd --help lists every command", () => {
    const run = llsd(["--help"]);
    expect(run.code).toBe(0);
    for (const c of COMMANDS) expect(run.stdout).toContain(`llsd ${c}`);
  });
});

describe("files that cannot be read", () => {
  it.each([
    [["render", "nope.yaml"]],
    [["validate", "nope.yaml"]],
    [["convert", "--to", "v1alpha2", "nope.yaml"]],
    [["migrate", "nope.yaml"]],
    [["request", "sync", "nope.yaml"]],
    [["render", "cr.yaml", "--base-config", "nope.yaml"]],
  ])("%j: one line naming the file, then where to get help; exit 2", (args) => {
    const run = llsd(args, { "cr.yaml": v2 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: nope.yaml: no such file\nRun "llsd \w+ --help" for usage.\n$/);
    expect(run.stdout).toBe("");
  });

  it("a directory is named as one", () => {
    expect(llsd(["validate", "samples"]).stderr).toMatch(/^error: samples: is a directory/);
  });

  it.each([
    [["render", "--frob", "x.yaml"]],
    [["request", "sync"]],
    [["request", "apply", "x.yaml"]],
    [["distributions", "extra"]],
  ])("%j is a usage error with a one-line reason", (args) => {
    const run = llsd(args);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[1]).toMatch(/^Run "llsd \w+ --help" for usage.$/);
  });
});

describe("bad YAML and misspelled kinds", () => {
  it.each([["render"], ["validate"], ["request", "sync"], ["request", "customize"]])(
    "llsd %s refuses YAML with a syntax error, naming the line",
    (...command) => {
      const run = llsd([...command, "bad.yaml"], { "bad.yaml": broken });
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toMatch(/bad.yaml:\d+: invalid YAML/);
    },
  );

  it.each([["render"], ["validate"], ["request", "sync"]])(
    "llsd %s refuses a misspelled kind with the kind it meant",
    (...command) => {
      const run = llsd([...command, "typo.yaml"], { "typo.yaml": misspelled });
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain(
        '"LlamaStackDistributon" is not a kind this project serves; did you mean "LlamaStackDistribution"?',
      );
    },
  );

  it("llsd validate of a file without any LlamaStackDistribution exits 1", () => {
    const run = llsd(["validate", "cm.yaml"], { "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n" });
    expect([run.code, run.stdout]).toEqual([
      1,
      "cm.yaml: invalid\n  cm.yaml: has no LlamaStackDistribution document\n",
    ]);
  });
});

describe("v1alpha1 files", () => {
  it("llsd request sync sends the parent as the cluster stores it, converted, and notes it on stderr", () => {
    const run = llsd(["request", "sync", "old.yaml"], { "old.yaml": v1 });
    const converted = llsd(["convert", "--to", "v1alpha2", "old.yaml"], { "old.yaml": v1 });
    expect(run.code).toBe(0);
    const parent = JSON.parse(run.stdout).parent;
    expect(parent.apiVersion).toBe("llamastack.io/v1alpha2");
    expect(parent.spec).toEqual(parse(converted.stdout).spec);
    expect(run.stderr).toMatch(/^note: old: llamastack.io\/v1alpha1 converted to llamastack.io\/v1alpha2/);
  });

  it("llsd validate checks a v1alpha1 file after conversion", () => {
    expect(llsd(["validate", "old.yaml"], { "old.yaml": v1 }).stdout).toBe(
      "old.yaml: llamastack.io/v1alpha1 old: valid\n",
    );
  });
});
