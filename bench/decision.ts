/**
 * The `/validate` decision alone, for counting instructions (BENCHMARKS.md, "What was cut"):
 * `review()` of a build (`npm run build` writes dist/) on the recorded reviews, `warm` passes
 * then `measured` ones, no HTTP, no logger. Under callgrind the count is stable to a few
 * hundredths of a percent where CPU time on a shared machine moves by tens:
 *
 *   valgrind --tool=callgrind node --single-threaded --import tsx bench/decision.ts dist 3 2
 *
 * The same run with `0 0` counts the start-up, to take away. Another build (a copy of dist/
 * made before a change, inside the repository so it finds node_modules) is compared by its path.
 */
import { resolve } from "node:path";
import type * as Review from "../lib/admission/review";
import { readTraffic } from "./traffic";

function main([root = "dist", warm = "3", measured = "2"]: readonly string[]): void {
  // The build under test, not this tree's TypeScript: two builds are compared by path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-type-assertion -- a build of this tree's lib/admission/review.ts
  const { review, admissionReviewShape } = require(resolve(root, "lib/admission/review.js")) as typeof Review;
  const requests = readTraffic("validate").flatMap((record) => {
    const shape = admissionReviewShape(JSON.parse(record.body));
    return shape.ok ? [shape.request] : [];
  });
  const pass = (): number => {
    const started = process.cpuUsage();
    for (const request of requests) JSON.stringify(review(request));
    const used = process.cpuUsage(started);
    return (used.user + used.system) / requests.length;
  };
  for (let i = 0; i < Number(warm); i++) pass();
  const times = Array.from({ length: Number(measured) }, pass);
  if (times.length > 0)
    console.log(
      `${root}: ${requests.length} reviews, CPU µs a review per pass: ${times.map((t) => t.toFixed(0)).join(" ")}`,
    );
}

main(process.argv.slice(2));
