/**
 * Finds where source code reads an `MCPX_…` environment variable, walking the
 * syntax tree rather than matching text, so a name in a comment, a message or
 * a set of names to strip is not a read. For `scripts/script_env_test.ts`.
 *
 * Uses `Deno.lint.runPlugin`, which exists only under `deno test`.
 *
 * @module
 */

/** One read of a variable. */
export interface EnvRead {
  name: string;
  /** 1-based line. */
  line: number;
}

const MCPX = /^MCPX_[A-Z0-9_]+$/;

/**
 * The `MCPX_…` variables `source` reads: `x.MCPX_A` and `x["MCPX_A"]` (not as
 * an assignment target or under `delete`), any call whose first argument is
 * the name itself (`Deno.env.get("MCPX_A")`, a helper such as
 * `env("MCPX_A")`), and `const { MCPX_A } = x`.
 *
 * @param fileName Name used for parsing (its extension picks the syntax).
 * @param source The file's text.
 * @returns Reads in source order.
 */
export function envReads(fileName: string, source: string): EnvRead[] {
  const reads: EnvRead[] = [];
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const push = (name: unknown, node: { range: [number, number] }) => {
    if (typeof name === "string" && MCPX.test(name)) {
      reads.push({ name, line: lineOf(node.range[0]) });
    }
  };
  const plugin: Deno.lint.Plugin = {
    name: "mcpx-env",
    rules: {
      reads: {
        create() {
          return {
            MemberExpression(node) {
              const parent = node.parent;
              if (parent.type === "AssignmentExpression" && parent.left === node) return;
              if (parent.type === "UnaryExpression" && parent.operator === "delete") return;
              const property = node.property;
              if (!node.computed && property.type === "Identifier") push(property.name, node);
              if (node.computed && property.type === "Literal") push(property.value, node);
            },
            CallExpression(node) {
              const first = node.arguments[0];
              if (first?.type === "Literal") push(first.value, node);
            },
            ObjectPattern(node) {
              for (const property of node.properties) {
                if (property.type === "Property" && property.key.type === "Identifier") {
                  push(property.key.name, property);
                }
              }
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin, fileName, source);
  return reads.sort((a, b) => a.line - b.line);
}
