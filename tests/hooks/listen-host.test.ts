/**
 * `HOST` (hooks/service.ts): every listener binds the address it names; unset, all interfaces
 * (the image's default: in a pod the NetworkPolicy is the boundary). `npm start` passes
 * 127.0.0.1, so the README's quick start serves nobody but this machine. An address the machine
 * does not have stops the start with a reason that names HOST.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { networkInterfaces } from "node:os";
import { createLogger } from "../../hooks/logger";
import { serviceConfigFromEnv, startService } from "../../hooks/service";
import { echoCustomize, echoSync } from "./helpers";

interface Started {
  readonly port: number;
  readonly lines: readonly Record<string, unknown>[];
  readonly stop: () => void;
}

async function started(env: NodeJS.ProcessEnv, lines: Record<string, unknown>[] = []): Promise<Started> {
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  const config = { ...serviceConfigFromEnv({ PORT: "0", ...env }), drainDelayMs: 0 };
  const service = startService(config, {
    logger: createLogger({ level: "info", destination }),
    handlers: { sync: echoSync, customize: echoCustomize },
    exit: () => {},
  });
  await service.listening;
  return { port: service.ports().http, lines, stop: () => service.shutdown("SIGINT") };
}

/** Whether a TCP connection to address:port is accepted. */
function reaches(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** This machine's addresses on a real interface (not loopback). */
const external = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a !== undefined && !a.internal && a.family === "IPv4")
  .map((a) => a!.address);

const boundAddresses = (s: Started) => s.lines.filter((l) => l.msg === "Listening").map((l) => l.address);

describe("HOST", () => {
  it("127.0.0.1: bound to loopback, reached there and not on the machine's other addresses", async () => {
    const s = await started({ HOST: "127.0.0.1" });
    try {
      expect(boundAddresses(s)).toEqual(["127.0.0.1"]);
      expect(await reaches("127.0.0.1", s.port)).toBe(true);
      for (const address of external) expect([address, await reaches(address, s.port)]).toEqual([address, false]);
    } finally {
      s.stop();
    }
  });

  it("unset: every interface, so the machine's other addresses reach it too", async () => {
    const s = await started({});
    try {
      // `::` takes IPv4 too; a machine without IPv6 binds 0.0.0.0.
      expect(boundAddresses(s)).toHaveLength(1);
      expect(["::", "0.0.0.0"]).toContain(boundAddresses(s)[0]);
      for (const address of [...external, "127.0.0.1"])
        expect([address, await reaches(address, s.port)]).toEqual([address, true]);
    } finally {
      s.stop();
    }
  });

  it("an address this machine does not have: the start fails, the reason names HOST and the fix", async () => {
    const lines: Record<string, unknown>[] = [];
    await expect(started({ HOST: "198.51.100.7" }, lines)).rejects.toThrow();
    const failed = lines.find((l) => l.msg === "Listen failed");
    expect(failed?.reason).toBe(
      "HOST 198.51.100.7 is not an address of this machine: set HOST to one of its addresses (127.0.0.1 for this machine only), or unset it for all interfaces",
    );
  });
});

describe("npm start", () => {
  it("listens on 127.0.0.1 unless HOST says otherwise", async () => {
    const child = spawn("npm", ["start"], {
      cwd: join(__dirname, "..", ".."),
      env: { ...process.env, HOST: "", PORT: "0", LOG_LEVEL: "info", LLSD_READ_IMAGE_LABELS: "false" },
      detached: true,
    });
    try {
      const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const line = text.split("\n").find((l) => l.includes('"msg":"Listening"'));
          if (line) resolve(JSON.parse(line) as Record<string, unknown>);
        });
        child.once("exit", (code) => reject(new Error(`npm start exited with ${String(code)}: ${text}`)));
      });
      expect(listening.address).toBe("127.0.0.1");
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
  }, 60_000);
});
