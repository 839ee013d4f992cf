/** Timing helpers shared by the benchmarks. */

export interface Timing {
  readonly median: number;
  readonly p99: number;
}

/** The q-quantile of ascending `sorted` (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** The middle value of `values` (nearest rank; the upper one of an even count). */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export function timingOf(samples: number[]): Timing {
  samples.sort((a, b) => a - b);
  return { median: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

/** Milliseconds per call of `fn`, after a warm-up (JIT and caches). */
export function measure(fn: () => void, iterations: number): Timing {
  for (let i = 0; i < Math.min(200, iterations); i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return timingOf(samples);
}

/** `measure` for a function that returns a promise: each call awaited before the next. */
export async function measureAsync(fn: () => Promise<unknown>, iterations: number): Promise<Timing> {
  for (let i = 0; i < Math.min(200, iterations); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return timingOf(samples);
}

/**
 * `a` and `b` measured in alternating rounds, so a burst of machine noise hits both: the
 * ratio of the two is what holds from one machine (or moment) to the next. Each is first run
 * `warmup` times unmeasured: V8 optimizes a function called once per sync only after some
 * thousands of syncs, and a median taken before that measures the JIT, not the code (a
 * process's cold calls are the replay benchmark's cold pass).
 */
export function measurePair(
  a: () => void,
  b: () => void,
  iterations: number,
  { rounds = 5, warmup = 0 }: { readonly rounds?: number; readonly warmup?: number } = {},
): [Timing, Timing] {
  for (let i = 0; i < warmup; i++) {
    a();
    b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  const per = Math.ceil(iterations / rounds);
  for (let r = 0; r < rounds; r++) {
    for (const [fn, into] of [
      [a, as],
      [b, bs],
    ] as const) {
      for (let i = 0; i < Math.min(100, per); i++) fn();
      for (let i = 0; i < per; i++) {
        const start = process.hrtime.bigint();
        fn();
        into.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
  }
  return [timingOf(as), timingOf(bs)];
}
