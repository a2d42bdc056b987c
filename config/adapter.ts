/**
 * An adapter: a command-line program declared as an MCP server. Each tool is
 * a named subcommand (fixed leading `args`) with declared parameters, each
 * parameter a flag or a position; what a call may run is exactly what the
 * declaration wrote down, and its arguments reach the program as argv, never
 * through a shell. Validating a declared item ({@link parseAdapter}), the
 * JSON Schema of a tool's arguments ({@link toolInputSchema}) and the argv a
 * call runs ({@link adapterArgv}) live here; serving it is cli/adapters/adapter_serve.ts.
 *
 * Source: spec 000, "Command-line programs as servers"; decision 0052.
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "../core/posix_path.ts";
import { describeValue } from "./_describe.ts";
import { Problems } from "./_problems.ts";
import { toIdentifier } from "./identifiers.ts";
import type { Declaration } from "./derived_servers.ts";

/** The value types a parameter may declare. */
export const PARAM_TYPES = ["string", "integer", "number", "boolean", "array"] as const;

/** One of {@link PARAM_TYPES}; `array` is a list of strings, each passed on its own. */
export type ParamType = typeof PARAM_TYPES[number];

/** One declared parameter of a tool. */
export interface AdapterParam {
  name: string;
  type: ParamType;
  /**
   * The flag that carries it (`-n`, `--limit`): its value follows as the next
   * argument, or in the same one when the flag ends in `=` (`--format=`). A
   * boolean is the flag's presence alone.
   */
  flag?: string;
  /** Its place among the positional arguments (0 first), after every flag. */
  position?: number;
  /** Used when the call leaves it out (as written: `"10"` or `10`). */
  default?: string | number | boolean;
  required: boolean;
  description?: string;
  /**
   * A positional value may begin with `-` (the program would read it as an
   * option); refused unless this is true.
   */
  allowDash: boolean;
}

/** One tool: a subcommand of the program. */
export interface AdapterTool {
  name: string;
  description?: string;
  /** Fixed arguments first (`["log", "--oneline"]`). */
  args: string[];
  params: AdapterParam[];
}

/** One declared adapter, validated. */
export interface Adapter {
  name: string;
  /** The program: a name looked up on PATH, or a path (a relative one from the declaration file). */
  command: string;
  description?: string;
  tools: AdapterTool[];
  /** The declaration file. */
  file: string;
}

/**
 * Validates one declared adapter.
 *
 * @param declaration An item of kind `adapters` (config/derived_servers.ts).
 * @returns The adapter with defaults filled in (`args: []`, `params: []`, `required: false`).
 * @throws {ConfigError} Listing every problem with its JSON path, the value and the fix.
 */
export function parseAdapter(declaration: Declaration): Adapter {
  const { file, index, item, name } = declaration;
  const problems = new Problems(file);
  const at = ["adapters", index] as const;
  const known = ["name", "command", "description", "cwd", "tools"];
  for (const key of Object.keys(item)) {
    if (!known.includes(key)) {
      problems.add([...at, key], `unknown key; an adapter holds ${known.join(", ")}`);
    }
  }
  let command = "";
  if (typeof item.command !== "string" || item.command.trim() === "") {
    problems.add(
      [...at, "command"],
      `must be the program to run, got ${describeValue(item.command)}; write e.g. "git"`,
    );
  } else {
    command = item.command.includes("/") && !isAbsolute(item.command)
      ? resolve(dirname(file), item.command)
      : item.command;
  }
  const tools: AdapterTool[] = [];
  if (!Array.isArray(item.tools) || item.tools.length === 0) {
    problems.add(
      [...at, "tools"],
      `must be a non-empty list of tools, got ${describeValue(item.tools)}; write ` +
        `[{ "name": "log", "args": ["log", "--oneline"] }]`,
    );
  } else {
    // By identifier, as mcpx shows tools: `get-x` and `get_x` would be one function.
    const names = new Map<string, string>();
    item.tools.forEach((raw, i) => {
      const tool = parseTool(raw, [...at, "tools", i], problems);
      if (!tool) return;
      const fn = toIdentifier(tool.name);
      const first = names.get(fn);
      if (first === tool.name) {
        problems.add(
          [...at, "tools", i, "name"],
          `tool ${JSON.stringify(tool.name)} is declared twice`,
        );
      } else if (first !== undefined) {
        problems.add(
          [...at, "tools", i, "name"],
          `tools ${JSON.stringify(first)} and ${JSON.stringify(tool.name)} both become ` +
            `${JSON.stringify(fn)}, the name mcpx shows and calls; rename one of them`,
        );
      }
      names.set(fn, first ?? tool.name);
      tools.push(tool);
    });
  }
  problems.throwIfAny();
  return {
    name,
    command,
    ...(typeof item.description === "string" ? { description: item.description } : {}),
    tools,
    file,
  };
}

type Path = readonly (string | number)[];

function parseTool(raw: unknown, at: Path, problems: Problems): AdapterTool | undefined {
  if (!isObject(raw)) {
    problems.add(
      at,
      `must be an object, got ${describeValue(raw)}; write { "name": "…", "args": [] }`,
    );
    return undefined;
  }
  const known = ["name", "description", "args", "params"];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) {
      problems.add([...at, key], `unknown key; a tool holds ${known.join(", ")}`);
    }
  }
  const before = problems.list.length;
  if (typeof raw.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(raw.name)) {
    problems.add(
      [...at, "name"],
      `must be a name of letters, digits, _ and -, got ${describeValue(raw.name)}`,
    );
  }
  if (raw.description !== undefined && typeof raw.description !== "string") {
    problems.add([...at, "description"], `must be a string, got ${describeValue(raw.description)}`);
  }
  const args = raw.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
    problems.add(
      [...at, "args"],
      `must be a list of strings (the fixed arguments, one argv entry each), got ${
        describeValue(args)
      }`,
    );
  }
  const params: AdapterParam[] = [];
  const rawParams = raw.params ?? [];
  if (!Array.isArray(rawParams)) {
    problems.add(
      [...at, "params"],
      `must be a list of parameters, got ${describeValue(rawParams)}`,
    );
  } else {
    const names = new Set<string>();
    const positions = new Set<number>();
    rawParams.forEach((p, i) => {
      const param = parseParam(p, [...at, "params", i], problems);
      if (!param) return;
      if (names.has(param.name)) {
        problems.add(
          [...at, "params", i, "name"],
          `parameter ${JSON.stringify(param.name)} is declared twice`,
        );
      }
      if (param.position !== undefined && positions.has(param.position)) {
        problems.add(
          [...at, "params", i, "position"],
          `position ${param.position} is taken already`,
        );
      }
      names.add(param.name);
      if (param.position !== undefined) positions.add(param.position);
      params.push(param);
    });
  }
  if (problems.list.length > before) return undefined;
  return {
    name: raw.name as string,
    ...(typeof raw.description === "string" ? { description: raw.description } : {}),
    args: args as string[],
    params,
  };
}

function parseParam(raw: unknown, at: Path, problems: Problems): AdapterParam | undefined {
  if (!isObject(raw)) {
    problems.add(
      at,
      `must be an object, got ${
        describeValue(raw)
      }; write { "name": "limit", "flag": "-n", "type": "integer" }`,
    );
    return undefined;
  }
  const known = [
    "name",
    "flag",
    "position",
    "type",
    "default",
    "required",
    "description",
    "allowDash",
  ];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) {
      problems.add([...at, key], `unknown key; a parameter holds ${known.join(", ")}`);
    }
  }
  const before = problems.list.length;
  if (typeof raw.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.name)) {
    problems.add([...at, "name"], `must be an identifier, got ${describeValue(raw.name)}`);
  }
  const type = raw.type ?? "string";
  if (!PARAM_TYPES.includes(type as ParamType)) {
    problems.add(
      [...at, "type"],
      `must be one of ${PARAM_TYPES.join(", ")}, got ${describeValue(type)}`,
    );
  }
  const hasFlag = raw.flag !== undefined;
  const hasPosition = raw.position !== undefined;
  if (hasFlag === hasPosition) {
    problems.add(
      at,
      `must set exactly one of "flag" (e.g. "-n") and "position" (e.g. 0), got ${
        hasFlag ? "both" : "neither"
      }`,
    );
  }
  if (
    hasFlag && (typeof raw.flag !== "string" || !/^-[^\s]*$/.test(raw.flag) || raw.flag === "-")
  ) {
    problems.add(
      [...at, "flag"],
      `must be a flag beginning with - (e.g. "-n", "--limit", "--format="), got ${
        describeValue(raw.flag)
      }`,
    );
  }
  if (hasPosition && !(Number.isInteger(raw.position) && (raw.position as number) >= 0)) {
    problems.add([...at, "position"], `must be an integer ≥ 0, got ${describeValue(raw.position)}`);
  }
  if (type === "boolean" && hasPosition) {
    problems.add(
      [...at, "type"],
      `a boolean is a flag's presence, so it needs "flag", not "position"`,
    );
  }
  if (type === "boolean" && typeof raw.flag === "string" && raw.flag.endsWith("=")) {
    problems.add(
      [...at, "flag"],
      `a boolean is a flag's presence alone; drop the "=" from ${raw.flag}`,
    );
  }
  if (raw.required !== undefined && typeof raw.required !== "boolean") {
    problems.add([...at, "required"], `must be true or false, got ${describeValue(raw.required)}`);
  }
  if (raw.allowDash !== undefined && typeof raw.allowDash !== "boolean") {
    problems.add(
      [...at, "allowDash"],
      `must be true or false, got ${describeValue(raw.allowDash)}`,
    );
  }
  if (raw.description !== undefined && typeof raw.description !== "string") {
    problems.add([...at, "description"], `must be a string, got ${describeValue(raw.description)}`);
  }
  const dflt = raw.default;
  if (dflt !== undefined) {
    const value = typeof dflt === "string" && type !== "string" && type !== "array"
      ? coerce(dflt, type as ParamType)
      : dflt;
    if (value === undefined || problemOf(value, type as ParamType) !== undefined) {
      problems.add(
        [...at, "default"],
        `must be ${type === "integer" || type === "array" ? "an" : "a"} ${type}, got ${
          describeValue(dflt)
        }`,
      );
    }
  }
  if (problems.list.length > before) return undefined;
  return {
    name: raw.name as string,
    type: type as ParamType,
    ...(hasFlag ? { flag: raw.flag as string } : { position: raw.position as number }),
    ...(dflt !== undefined ? { default: dflt as string | number | boolean } : {}),
    required: raw.required === true,
    ...(typeof raw.description === "string" ? { description: raw.description } : {}),
    allowDash: raw.allowDash === true,
  };
}

/**
 * The JSON Schema (2020-12 subset) of a tool's arguments: one property per
 * parameter, typed from it, `required` from its declaration, its default
 * shown, nothing else accepted.
 */
export function toolInputSchema(tool: AdapterTool): {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
} {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const p of tool.params) {
    const dflt = p.default === undefined
      ? undefined
      : typeof p.default === "string"
      ? coerce(p.default, p.type)
      : p.default;
    properties[p.name] = {
      ...(p.type === "array" ? { type: "array", items: { type: "string" } } : { type: p.type }),
      ...(p.description ? { description: p.description } : {}),
      ...(dflt !== undefined ? { default: dflt } : {}),
    };
  }
  const required = tool.params.filter((p) => p.required).map((p) => p.name);
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** The JSON Schema of every adapter tool's structured result. */
export const ADAPTER_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    exitCode: {
      type: "integer",
      description: "the program's exit status (non-zero is still a result)",
    },
    stdout: { type: "string" },
    stderr: { type: "string" },
  },
  required: ["exitCode", "stdout", "stderr"],
} as const;

/**
 * The argv (after the program) one call runs: the tool's fixed `args`, then
 * each flag parameter in declaration order, then the positional ones by
 * position. A boolean adds its flag when true and nothing when false; an
 * array repeats its flag (or fills consecutive positions) once per element; a
 * parameter left out takes its default, or is absent.
 *
 * @param tool The tool.
 * @param input The call's arguments.
 * @returns The arguments, one argv entry each (never joined, never given to a shell).
 * @throws {TypeError} Naming the parameter, the value and what it accepts: an unknown key, a
 *   wrong type, a missing required one, a positional value beginning with `-` without
 *   `allowDash`.
 */
export function adapterArgv(tool: AdapterTool, input: Record<string, unknown>): string[] {
  const byName = new Map(tool.params.map((p) => [p.name, p]));
  for (const key of Object.keys(input)) {
    if (!byName.has(key)) {
      throw new TypeError(
        `${tool.name} has no parameter ${JSON.stringify(key)}; it takes ${
          tool.params.map((p) => p.name).join(", ") || "none"
        }`,
      );
    }
  }
  const flags: string[] = [];
  const positional: [number, string[]][] = [];
  for (const p of tool.params) {
    let value = Object.hasOwn(input, p.name) ? input[p.name] : undefined;
    if (value === undefined || value === null) {
      if (p.required) throw new TypeError(`${tool.name}: parameter ${p.name} is required`);
      if (p.default === undefined) continue;
      value = typeof p.default === "string" ? coerce(p.default, p.type) ?? p.default : p.default;
    }
    const problem = problemOf(value, p.type);
    if (problem) {
      throw new TypeError(
        `${tool.name}: parameter ${p.name} ${problem}, got ${describeValue(value)}`,
      );
    }
    const texts = p.type === "boolean"
      ? []
      : p.type === "array"
      ? (value as string[])
      : [String(value)];
    if (p.flag !== undefined) {
      if (p.type === "boolean") {
        if (value === true) flags.push(p.flag);
        continue;
      }
      for (const text of texts) {
        if (p.flag.endsWith("=")) flags.push(`${p.flag}${text}`);
        else flags.push(p.flag, text);
      }
      continue;
    }
    for (const text of texts) {
      if (text.startsWith("-") && !p.allowDash) {
        throw new TypeError(
          `${tool.name}: parameter ${p.name} is ${JSON.stringify(text)}, which begins with "-" ` +
            `and would be read as an option; the declaration does not allow that (allowDash)`,
        );
      }
    }
    positional.push([p.position!, texts]);
  }
  positional.sort((a, b) => a[0] - b[0]);
  return [...tool.args, ...flags, ...positional.flatMap(([, texts]) => texts)];
}

function coerce(text: string, type: ParamType): unknown {
  if (type === "integer" || type === "number") {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
  }
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : undefined;
  return text;
}

function problemOf(value: unknown, type: ParamType): string | undefined {
  switch (type) {
    case "string":
      return typeof value === "string" ? undefined : "must be a string";
    case "integer":
      return Number.isInteger(value) ? undefined : "must be an integer";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "array":
      return Array.isArray(value) && value.every((v) => typeof v === "string")
        ? undefined
        : "must be a list of strings";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
