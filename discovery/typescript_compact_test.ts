import assert from "node:assert/strict";
import { denoCheck, GRAPH_SCHEMA, toolEntry } from "./_fixtures.ts";
import type { CachedTool } from "./types.ts";
import { renderNamespace, toolDeclaration, TYPES_PREAMBLE } from "./typescript.ts";

/** A tool whose input schema is `inputSchema`. */
const tool = (inputSchema: unknown, extra: Partial<CachedTool> = {}): CachedTool => ({
  name: "fn",
  inputSchema: inputSchema as Record<string, unknown>,
  ...extra,
});

Deno.test("a */ in any description is written *\\/, in tool and argument alike", async () => {
  const text = await toolDeclaration(
    tool({
      type: "object",
      properties: {
        glob: { type: "string", description: "Like src/**/*.ts", default: "**/*" },
        tail: { type: "array", items: { type: "string", description: "a */ b" } },
      },
    }, { description: "Matches **/*.ts */ and more" }),
    "fn",
  );
  assert.ok(text.includes("/** Matches **\\/*.ts *\\/ and more */"), text);
  assert.ok(text.includes('/** Like src/**\\/*.ts (default "**\\/*") */'), text);
  assert.ok(text.includes("Items: a *\\/ b"), text);
  assert.ok(!text.includes("* /"), text);
  assert.equal(await denoCheck(`${TYPES_PREAMBLE}\ndeclare namespace n {\n${text}\n}\n`), "", text);
});

/** A memory-server-like namespace: a repeated entity, alike arguments, renamed tools. */
const GRAPH = (() => {
  const graph = GRAPH_SCHEMA;
  const limit = { type: "number", description: "How many entities to return at most", default: 10 };
  return {
    namespace: "memory",
    server: "memory",
    description: "memory-server",
    tools: [
      toolEntry("memory", "create_entities", "Create entities. Changes the knowledge graph.", {
        tool: "create-entities",
        inputSchema: graph,
        outputSchema: graph,
      }),
      toolEntry("memory", "read_graph", "Read the graph.", {
        tool: "read-graph",
        inputSchema: { type: "object", properties: { limit } },
        outputSchema: graph,
      }),
      toolEntry("memory", "search_nodes", "Search nodes. Changes the knowledge graph.", {
        tool: "search-nodes",
        inputSchema: {
          type: "object",
          properties: { query: { type: "string", description: "What to find" }, limit },
          required: ["query"],
        },
        outputSchema: graph,
      }),
      toolEntry("memory", "delete_entities", "Delete entities. Changes the knowledge graph.", {
        inputSchema: graph,
      }),
    ],
  };
})();

Deno.test("renderNamespace() says once what the tools repeat", async () => {
  const text = await renderNamespace(GRAPH);
  assert.equal(
    text,
    `/**
 * memory-server
 * Tool names have _ here where the server has - (read_graph is read-graph).
 * All tools except read_graph: Changes the knowledge graph.
 * Arguments shown below without a description:
 * - limit: How many entities to return at most (default 10)
 */
declare namespace memory {
  interface Entity {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
  }

  /** Create entities. */
  function create_entities(args: { entities: Entity[] }): Promise<{ entities: Entity[] }>;

  /** Read the graph. */
  function read_graph(args: { limit?: number }): Promise<{ entities: Entity[] }>;

  /** Search nodes. */
  function search_nodes(args: {
    /** What to find */
    query: string;
    limit?: number;
  }): Promise<{ entities: Entity[] }>;

  /** Delete entities. */
  function delete_entities(args: { entities: Entity[] }): Promise<ToolResult>;
}`,
  );
  assert.equal(await denoCheck(`${TYPES_PREAMBLE}\n\n${text}\n`), "");
});

Deno.test("renderNamespace() of some tools is as compact, and self-contained", async () => {
  const one = await renderNamespace(GRAPH, { tools: ["read_graph"] });
  assert.equal(
    one,
    `/** memory-server */
declare namespace memory {
  /** Read the graph. (MCP tool name "read-graph") */
  function read_graph(args: {
    /** How many entities to return at most (default 10) */
    limit?: number;
  }): Promise<{
    entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
    }[];
  }>;
}`,
  );
  assert.equal(await denoCheck(`${TYPES_PREAMBLE}\n\n${one}\n`), "");
});
