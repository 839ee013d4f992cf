/**
 * `LLSD_BENCH_NODE`: the spawned-process benchmarks (startup, memory, replay, replicas) run the
 * service and their baselines on the node binary it names, so their figures can be taken on
 * the image's Node. Spawns real processes through a wrapper script that records its calls.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeOf, spawnedNode, spawnedNodeVersion, spawnReady } from "../../bench/service";

const SERVER = `require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");`;

describe("LLSD_BENCH_NODE", () => {
  let dir: string;
  let wrapper: string;
  const calls = (): string[] => readFileSync(join(dir, "calls"), "utf8").trim().split("\n");

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bench-node-"));
    wrapper = join(dir, "node");
    // Records each call, then runs this Node with the same arguments.
    writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> "${dir}/calls"\nexec "${process.execPath}" "$@"\n`);
    chmodSync(wrapper, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [{}, process.execPath],
    [{ LLSD_BENCH_NODE: "" }, process.execPath],
    [{ LLSD_BENCH_NODE: "/opt/node24/bin/node" }, "/opt/node24/bin/node"],
  ])("names the binary: %j → %s", (env, binary) => {
    expect(spawnedNode(env)).toBe(binary);
  });

  it("spawns the service's processes with it", async () => {
    const before = process.env.LLSD_BENCH_NODE;
    process.env.LLSD_BENCH_NODE = wrapper;
    try {
      const spawned = await spawnReady(["-e", SERVER], {}, "/");
      await spawned.stop();
    } finally {
      if (before === undefined) delete process.env.LLSD_BENCH_NODE;
      else process.env.LLSD_BENCH_NODE = before;
    }
    expect(calls()).toEqual(["-e"]);
  }, 60_000); // a process start; on a shared machine under load it took more than jest's 5 s

  it("reports its version beside this process's, and fails on a binary that does not run", () => {
    expect(spawnedNodeVersion({ LLSD_BENCH_NODE: wrapper })).toBe(process.version);
    expect(calls()).toContain("--version");
    expect(() => spawnedNodeVersion({ LLSD_BENCH_NODE: join(dir, "missing") })).toThrow(/LLSD_BENCH_NODE=.*missing/);
    expect(nodeOf("v20.20.2", "v20.20.2")).toBe("v20.20.2");
    expect(nodeOf("v20.20.2", "v24.21.0")).toBe("v20.20.2 in process; v24.21.0 for the spawned service and baselines");
  });
});
