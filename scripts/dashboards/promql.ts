/**
 * The PromQL the server dashboards are made of, over the LLSD selector (grafana.ts `sel`): rates,
 * quantiles of histograms and ratios, each summed by the labels a panel splits by.
 */
import { sel } from "./grafana";

const RANGE = "[$__rate_interval]";

const by = (labels: string): string => (labels === "" ? "" : ` by (${labels})`);

/** Per-second rate of a counter (or a histogram's `_count`), summed by `labels`. */
export const rate = (metric: string, labels = "", matchers = ""): string =>
  `sum${by(labels)} (rate(${metric}${sel(matchers)}${RANGE}))`;

/** The q-quantile of a histogram, per `labels`, over the chosen range. */
export const quantile = (q: number, histogram: string, labels = "", matchers = ""): string =>
  `histogram_quantile(${q}, sum by (${labels === "" ? "le" : `${labels}, le`}) (rate(${histogram}_bucket${sel(matchers)}${RANGE})))`;

/**
 * The share of a counter's rate that matches `part`, per `labels`: 0 (not "no data") while the
 * part has no series yet, as a server that never failed has no error series.
 */
export const ratio = (metric: string, part: string, labels = ""): string =>
  `(${rate(metric, labels, part)} or ${rate(metric, labels)} * 0) / ${rate(metric, labels)}`;

/** A gauge summed by `labels`. */
export const gauge = (metric: string, labels = ""): string => `sum${by(labels)} (${metric}${sel()})`;
