/**
 * Moving a running CR from the 0.7 line to 0.8 or 1.x: the status says which state on the
 * volume the new server does not read, and what to do; nothing else gets the note.
 */
import { sync } from "../../../lib/sync/sync";
import type { SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, deps, observedFrom } from "../../sync-builders";

const IMAGES = {
  "0.7": "docker.io/llamastack/distribution-starter:0.7.1",
  "0.8": "docker.io/ogx/distribution-starter:0.8.0",
  "1.3": "docker.io/ogxai/distribution-starter:1.3.0",
} as const;
type Line = keyof typeof IMAGES;

const spec = (line: Line, storage: object | undefined) => ({
  distribution: { image: IMAGES[line] },
  workload: storage ? { storage } : {},
});

/** The sync after the image changed from `from` to `to`, the Deployment of `from` running. */
function moved(from: Line, to: Line, storage: object | undefined): SyncResponse {
  const running = sync(aRequest(aParent(spec(from, storage))), deps());
  return sync(aRequest(aParent(spec(to, storage), { generation: 2 }), observedFrom(running.children)), deps());
}

const moveNotes = (r: SyncResponse) =>
  ((r.status.notes ?? []) as string[]).filter((n) => n.includes("the server moves from the 0.7 line"));

describe("moving a CR off the 0.7 line", () => {
  it.each<[Line, object, string, string]>([
    ["1.3", { size: "5Gi" }, "/.llama/distributions", "/.llama/.ogx/distributions"],
    ["0.8", { size: "5Gi" }, "/.llama/distributions", "/.llama/.ogx/distributions"],
    ["1.3", { size: "5Gi", mountPath: "/data" }, "/data/.llama/distributions", "/data/.ogx/distributions"],
  ])(
    "to %s with storage %j: says where the 0.7 state stays and where the new server keeps its own",
    (to, storage, before, after) => {
      const notes = moveNotes(moved("0.7", to, storage));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(`(${before}: registered models`);
      expect(notes[0]).toContain(`keeps its state in ${after} and starts without it`);
    },
  );

  it.each<[Line, Line, object | undefined]>([
    ["0.7", "0.7", { size: "5Gi" }],
    ["0.8", "1.3", { size: "5Gi" }],
    ["0.7", "1.3", undefined],
  ])("from %s to %s with storage %j: no note (nothing of 0.7 on a volume to leave behind)", (from, to, storage) => {
    expect(moveNotes(moved(from, to, storage))).toEqual([]);
  });
});
