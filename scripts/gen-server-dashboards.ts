/**
 * Writes the server-monitoring component's Grafana dashboards (the overview and its details)
 * from scripts/dashboards/. `npm run gen:dashboards`; tests/monitoring/server-rules.test.ts fails
 * while a committed file differs from what this writes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dashboard } from "./dashboards/grafana";
import { details } from "./dashboards/server-details";
import { overview } from "./dashboards/server-overview";

export const DASHBOARD_DIR = join(__dirname, "..", "metacontroller", "components", "server-monitoring", "dashboards");

/** Each dashboard's file name (its uid) and its JSON text, as committed. */
export function serverDashboardFiles(): { file: string; text: string }[] {
  return [overview, ...details].map((spec) => ({
    file: `${spec.uid}.json`,
    text: `${JSON.stringify(dashboard(spec), null, 2)}\n`,
  }));
}

if (require.main === module) {
  for (const { file, text } of serverDashboardFiles()) writeFileSync(join(DASHBOARD_DIR, file), text);
}
