/**
 * `mcpx doctor`'s check of namespaces derived from declarations
 * (`paths.adapters`, `paths.apis`; decision 0052): each declaration file
 * reads, each adapter's program is installed, and each API's document is
 * where its declaration says (a file that exists; a URL is fetched only with
 * `--online`). A derived server's own command is mcpx itself, so the
 * server-commands check cannot see these.
 *
 * @module
 */

import type { DoctorCheck, Finding } from "./doctor_check.ts";
import { declarationFiles, DERIVED_KINDS, readDeclarations } from "../../config/derived_servers.ts";
import { parsePathList } from "../../config/setting_value.ts";
import { adapterRow } from "../adapters/adapter.ts";
import { readApiDeclaration } from "../../config/api_declaration.ts";

/** How long `--online` waits for an API document's URL, ms. */
const ONLINE_TIMEOUT_MS = 5_000;

/** Declared adapters and APIs: their files read, programs installed, documents found. */
export const declaredCheck: DoctorCheck = {
  id: "declared-namespaces",
  title: "declared adapters and APIs can run",
  async run(dc) {
    const out: Finding[] = [];
    for (const kind of DERIVED_KINDS) {
      const places = parsePathList(String(await dc.cli.setting(kind.setting)));
      if (places.every((p) => p === null)) continue;
      let declared;
      try {
        declared = await readDeclarations(kind.kind, declarationFiles(places, kind.setting));
      } catch (error) {
        out.push({
          status: "fail",
          subject: kind.setting,
          message: (error as Error).message,
          fix: `fix the declaration file, or remove it from ${kind.setting}`,
        });
        continue;
      }
      for (const d of declared) {
        if (kind.kind === "adapters") {
          const row = adapterRow(d, dc.cli.env.PATH ?? "");
          out.push(
            row.problem
              ? {
                status: "fail",
                subject: d.name,
                message: row.problem,
                fix: row.invalid
                  ? `correct the adapter in ${d.file} (\`mcpx adapter check --json\` shows it)`
                  : `install ${row.command}, or change "command" in ${d.file}`,
              }
              : { status: "ok", subject: d.name, message: `adapter runs ${row.path}` },
          );
        } else {
          out.push(await apiFinding(d.item, d.file, d.index, d.name, dc.cli.env, dc.online));
        }
      }
    }
    return out.length ? out : [{ status: "info", message: "no adapters or APIs are declared" }];
  },
};

async function apiFinding(
  item: Record<string, unknown>,
  file: string,
  index: number,
  name: string,
  env: Record<string, string | undefined>,
  online: boolean,
): Promise<Finding> {
  let spec: string;
  try {
    spec = readApiDeclaration(item, file, index, env).spec;
  } catch (error) {
    return {
      status: "fail",
      subject: name,
      message: (error as Error).message,
      fix: `correct the API's declaration in ${file}`,
    };
  }
  if (!/^https?:\/\//i.test(spec)) {
    try {
      await Deno.stat(spec);
      return { status: "ok", subject: name, message: `API document ${spec} exists` };
    } catch {
      return {
        status: "fail",
        subject: name,
        message: `the API's document ${spec} does not exist or cannot be read`,
        fix: `put the document there, or correct "spec" in ${file}`,
      };
    }
  }
  const shown = new URL(spec).origin + new URL(spec).pathname;
  if (!online) {
    return {
      status: "info",
      subject: name,
      message: `API document at ${shown} (not fetched; --online)`,
    };
  }
  try {
    const response = await fetch(spec, { signal: AbortSignal.timeout(ONLINE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.ok
      ? { status: "ok", subject: name, message: `API document at ${shown} answers` }
      : {
        status: "fail",
        subject: name,
        message: `API document at ${shown} answers HTTP ${response.status}`,
        fix: `check the URL in ${file}, or that the service is up`,
      };
  } catch (error) {
    return {
      status: "fail",
      subject: name,
      message: `API document at ${shown} cannot be reached (${
        (error as Error).name === "TimeoutError"
          ? `no answer in ${ONLINE_TIMEOUT_MS / 1000} s`
          : "the connection failed"
      })`,
      fix: `check the URL in ${file}, the network, or that the service is up`,
    };
  }
}
