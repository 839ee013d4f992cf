/**
 * One file out of one layer, streamed: fetch body → sha256 → (gunzip) → tar-stream. Nothing
 * but the wanted file is kept. The layer is still read to the end, because only the digest of
 * all its bytes proves the file is what the image says; once the file is found we stop
 * decompressing and only hash, which also makes a tar without end-of-archive blocks (umoci
 * `insert` writes such tars) harmless.
 */
import { createHash } from "node:crypto";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { bodyChunks } from "./body";
import { describeError, type RequestContext } from "./http";
import { normalizeTarPath } from "./labels";
import { fail, ok, REASON, type Failed, type Result } from "./types";

export interface ExtractRequest {
  readonly path: string;
  readonly digest: string;
  readonly maxFileBytes: number;
  readonly maxLayerBytes: number;
  /** Whiteout entries that delete `path` from the layers below; seeing one (and not the file) is `fileDeleted`. */
  readonly hiddenBy?: readonly string[];
}

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/**
 * What compressed bytes are written into: gunzip or tar-stream's extractor. tar-stream 3 is
 * built on streamx, not Node's Writable, so both are used through this structural subset
 * (write/drain/end/pipe behave alike at runtime).
 */
interface ByteSink {
  write(chunk: Buffer): boolean;
  end(chunk?: unknown): unknown;
  destroy(): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** Collects the wanted entry; every other entry is drained so the tar parser keeps moving. */
class Finder {
  file: Buffer | undefined;
  problem: Failed | undefined;
  /** A whiteout of the file seen in this layer; the file itself in the same layer still wins. */
  whiteout: string | undefined;
  readonly extract = tar.extract();

  constructor(private readonly request: ExtractRequest) {
    this.extract.on("entry", (header, stream, next) => {
      const skip = (): void => void stream.on("end", () => next()).resume();
      const name = normalizeTarPath(header.name);
      if (request.hiddenBy?.includes(name)) this.whiteout ??= name;
      if (this.file !== undefined || name !== request.path) return skip();
      if (header.type !== "file" && header.type !== "contiguous-file") {
        this.problem = fail(
          REASON.invalidImage,
          `${request.path} in layer ${request.digest} is a ${header.type}, not a regular file`,
        );
        return skip();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (data: unknown) => {
        const chunk = Buffer.isBuffer(data) ? data : Buffer.alloc(0);
        size += chunk.length;
        if (size <= request.maxFileBytes) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (size > request.maxFileBytes)
          this.problem = fail(REASON.tooLarge, `${request.path} is larger than the ${request.maxFileBytes}-byte limit`);
        else this.file = Buffer.concat(chunks, size);
        next();
      });
    });
    this.extract.on("error", (err: Error) => {
      this.problem ??= fail(
        REASON.invalidImage,
        `layer ${request.digest} is not a readable tar archive (${err.message})`,
      );
    });
  }

  get sink(): ByteSink {
    return this.extract;
  }

  get done(): boolean {
    return this.file !== undefined || this.problem !== undefined;
  }
}

/** Where compressed bytes go: gunzip → tar, or straight into tar for an uncompressed layer. */
function decoderFor(first: Buffer, finder: Finder): ByteSink | string {
  if (ZSTD_MAGIC.every((b, i) => first[i] === b)) return "zstd layers are not supported (Node 20 has no zstd)";
  if (first[0] !== 0x1f || first[1] !== 0x8b) return finder.sink;
  const gunzip = createGunzip();
  gunzip.on(
    "error",
    (err) => (finder.problem ??= fail(REASON.invalidImage, `layer is not a valid gzip stream (${err.message})`)),
  );
  gunzip.pipe(finder.extract);
  return gunzip;
}

/** Honours backpressure; a sink that closes or fails instead of draining also releases the writer. */
function write(sink: ByteSink, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (sink.write(chunk)) return resolve();
    const done = (): void => {
      sink.off("drain", done);
      sink.off("close", done);
      sink.off("error", done);
      resolve();
    };
    sink.on("drain", done);
    sink.on("close", done);
    sink.on("error", done);
  });
}

/**
 * End of input: let the tar parser finish (or fail) so a file at the very end is still seen.
 * Only the extractor's end counts as done (gunzip's own finish comes before tar has parsed its
 * output); a gunzip error never ends the piped extractor, so it counts too, and the deadline
 * bounds the wait whatever the streams do.
 */
function settled(finder: Finder, sink: ByteSink, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => resolve();
    for (const event of ["finish", "close", "error"]) finder.sink.on(event, done);
    if (sink !== finder.sink) sink.on("error", done);
    signal.addEventListener("abort", done, { once: true });
    sink.end();
  });
}

/** Compressed bytes in, the decoder chosen once there are enough of them to tell gzip/zstd/tar apart. */
class LayerFeed {
  readonly hash = createHash("sha256");
  total = 0;
  sink: ByteSink | undefined;
  private head = Buffer.alloc(0); // bytes held back until the format is known

  constructor(readonly finder: Finder) {}

  async push(bytes: Buffer, last: boolean): Promise<Failed | undefined> {
    let pending = bytes;
    if (this.sink === undefined) {
      this.head = Buffer.concat([this.head, bytes]);
      if (this.head.length < ZSTD_MAGIC.length && !last) return undefined;
      const decoder = decoderFor(this.head, this.finder);
      if (typeof decoder === "string") return fail(REASON.invalidImage, decoder);
      [this.sink, pending] = [decoder, this.head];
    }
    if (!this.finder.done && pending.length > 0) await write(this.sink, pending);
    return undefined;
  }

  destroy(): void {
    this.sink?.destroy();
    this.finder.sink.destroy();
  }
}

/** Hashes and decodes the whole body; a failure ends the read early. */
async function readLayer(response: Response, feed: LayerFeed, request: ExtractRequest): Promise<Failed | undefined> {
  for await (const chunk of bodyChunks(response)) {
    feed.total += chunk.length;
    if (feed.total > request.maxLayerBytes) return layerTooLarge(request);
    feed.hash.update(chunk);
    const problem = await feed.push(chunk, false);
    if (problem !== undefined) return problem;
  }
  return feed.push(Buffer.alloc(0), true);
}

function layerTooLarge(request: ExtractRequest): Failed {
  return fail(REASON.tooLarge, `layer ${request.digest} is larger than the ${request.maxLayerBytes}-byte limit`);
}

/** What the layer said about the file, once its digest is proven. */
function outcome(feed: LayerFeed, request: ExtractRequest): Result<Buffer> {
  const actual = `sha256:${feed.hash.digest("hex")}`;
  if (actual !== request.digest)
    return fail(REASON.digestMismatch, `layer ${request.digest} does not match its digest (got ${actual})`, true);
  const { file, whiteout, problem } = feed.finder;
  if (file !== undefined) return ok(file);
  if (whiteout !== undefined && problem === undefined) {
    return fail(REASON.fileDeleted, `deleted by the whiteout ${whiteout} in layer ${request.digest}`);
  }
  return problem ?? fail(REASON.fileNotFound, `layer ${request.digest} has no file ${request.path}`);
}

export async function extractFile(
  response: Response,
  request: ExtractRequest,
  ctx: RequestContext,
  host: string,
): Promise<Result<Buffer>> {
  if (response.body === null) return fail(REASON.invalidImage, `layer ${request.digest} has no body`);
  if (Number(response.headers.get("content-length") ?? 0) > request.maxLayerBytes) {
    await response.body.cancel();
    return layerTooLarge(request);
  }
  const feed = new LayerFeed(new Finder(request));
  try {
    const problem = await readLayer(response, feed, request);
    if (problem !== undefined) return problem;
    if (feed.sink !== undefined && !feed.finder.done) await settled(feed.finder, feed.sink, ctx.deadline.signal);
  } catch (err) {
    return describeError(err, ctx, host);
  } finally {
    feed.destroy();
  }
  return outcome(feed, request);
}
