/**
 * The table of operations (decision 0021): every op mcpx has, in the order
 * `mcpx --help` lists their commands. The CLI, the daemon's routes, docs/cli.md,
 * the completion scripts and the man page are generated from it; the CLI's
 * warm path reads its plain-data rendering, ops/_table.gen.ts (written by
 * `deno task gen`, held fresh by ops/table_test.ts), so it loads no zod.
 *
 * @module
 */

import type { OpSpec } from "./op.ts";
import * as discovery from "./discovery_ops.ts";
import * as engine from "./engine_ops.ts";
import * as scripts from "./script_ops.ts";
import * as logs from "./log_ops.ts";
import * as meta from "./meta_ops.ts";
import * as content from "./content_ops.ts";
import * as task from "./task_ops.ts";
import * as question from "./question_ops.ts";
import * as skills from "./skills_ops.ts";
import * as auth from "./auth_ops.ts";
import * as serve from "./serve_ops.ts";
import * as apis from "./api_ops.ts";
import * as adapters from "./adapter_ops.ts";
import * as reach from "./reach_ops.ts";
import * as doctor from "./doctor_ops.ts";
import * as explore from "./explore_ops.ts";
import * as events from "./event_ops.ts";
import * as tui from "./tui_ops.ts";
import * as service from "./service_ops.ts";

/** Every operation, in help order. */
export const OPS: readonly OpSpec[] = [
  discovery.ls,
  discovery.search,
  discovery.types,
  discovery.catalog,
  discovery.schema,
  explore.explore,
  engine.call,
  task.tasks,
  question.elicit,
  content.prompts,
  content.resources,
  skills.skills,
  scripts.run,
  scripts.exec,
  discovery.scripts,
  discovery.client,
  engine.session,
  engine.status,
  engine.refresh,
  engine.restart,
  engine.trust,
  engine.untrust,
  auth.auth,
  discovery.config,
  reach.registry,
  reach.importOp,
  doctor.doctor,
  serve.serve,
  adapters.adapter,
  apis.api,
  engine.daemon,
  engine.daemons,
  engine.stop,
  service.service,
  logs.log,
  events.events,
  logs.stats,
  tui.tui,
  meta.completion,
  meta.man,
  meta.openapi,
  meta.completionWords,
];

/** The op called `name`, if any. */
export function opNamed(name: string): OpSpec | undefined {
  return OPS.find((op) => op.name === name);
}
