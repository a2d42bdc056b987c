/**
 * A fixture MCP server (official SDK, stdio) with a thousand tools, for
 * `deno task bench:scale`'s "one server of 1,000 tools" row (issue 11): what
 * an agent sees behind a gateway that fronts thirty SaaS APIs. No real server
 * lists that many, so this one makes them up, the same way every start.
 *
 * The tools are `<service>_<action>_<resource>` (`jira_create_issue`,
 * `kubernetes_list_pod`, `stripe_export_invoice`): 30 services, 3 to 7
 * resources each, 8 actions (list, get, create, update, delete, search,
 * archive, export), taken action by action until there are `--tools N`
 * (default 1,000; at most {@link catalogueSize}). Each has a two-sentence
 * description naming the service and the resource, and an input schema of 3
 * to 8 described arguments of the shapes real APIs take (required IDs,
 * paginated lists, enums, arrays, a nested object, a string map). Every tool
 * answers `called <name> with <arguments as JSON>`.
 *
 * Run: `deno run -A --config deno.json bench/_many_tools_server.ts [--tools N]`.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

/** Services: [name prefix, display name, resources]. */
const SERVICES: readonly [string, string, readonly string[]][] = [
  ["github", "GitHub", ["issue", "pull_request", "repository", "release", "workflow_run"]],
  ["gitlab", "GitLab", ["merge_request", "pipeline", "project", "issue", "runner"]],
  ["jira", "Jira", ["issue", "sprint", "board", "project", "comment", "worklog"]],
  ["linear", "Linear", ["issue", "cycle", "team", "project", "label"]],
  ["slack", "Slack", ["message", "channel", "user", "reminder", "file"]],
  ["gmail", "Gmail", ["message", "draft", "label", "thread", "filter"]],
  ["calendar", "Google Calendar", ["event", "calendar", "attendee", "reminder"]],
  ["drive", "Google Drive", ["file", "folder", "permission", "revision"]],
  ["notion", "Notion", ["page", "database", "block", "comment"]],
  ["confluence", "Confluence", ["page", "space", "attachment", "comment"]],
  ["postgres", "PostgreSQL", ["table", "row", "index", "query", "schema"]],
  ["redis", "Redis", ["key", "stream", "hash", "list"]],
  ["s3", "Amazon S3", ["bucket", "object", "lifecycle_rule", "policy"]],
  ["ec2", "Amazon EC2", ["instance", "volume", "snapshot", "security_group", "key_pair"]],
  ["kubernetes", "Kubernetes", [
    "pod",
    "deployment",
    "service",
    "config_map",
    "secret",
    "namespace",
    "job",
  ]],
  ["docker", "Docker", ["container", "image", "volume", "network"]],
  ["stripe", "Stripe", [
    "customer",
    "invoice",
    "subscription",
    "payment_intent",
    "refund",
    "product",
  ]],
  ["shopify", "Shopify", ["order", "product", "customer", "inventory_item", "fulfillment"]],
  ["salesforce", "Salesforce", ["account", "contact", "opportunity", "lead", "case"]],
  ["hubspot", "HubSpot", ["contact", "company", "deal", "ticket", "note"]],
  ["zendesk", "Zendesk", ["ticket", "user", "organization", "macro", "article"]],
  ["sentry", "Sentry", ["issue", "event", "release", "project", "alert_rule"]],
  ["datadog", "Datadog", ["monitor", "dashboard", "metric", "incident", "log_query"]],
  ["pagerduty", "PagerDuty", ["incident", "schedule", "service", "escalation_policy"]],
  ["figma", "Figma", ["file", "comment", "component", "project"]],
  ["asana", "Asana", ["task", "project", "section", "tag"]],
  ["trello", "Trello", ["card", "board", "list", "checklist"]],
  ["airtable", "Airtable", ["record", "table", "base", "view"]],
  ["twilio", "Twilio", ["message", "call", "phone_number"]],
  ["cloudflare", "Cloudflare", ["dns_record", "zone", "worker", "firewall_rule"]],
];

const ACTIONS = [
  "list",
  "get",
  "create",
  "update",
  "delete",
  "search",
  "archive",
  "export",
] as const;
type Action = typeof ACTIONS[number];

/** One made-up tool: its name, description and the zod shape of its arguments. */
export interface ManyTool {
  name: string;
  description: string;
  shape: z.ZodRawShape;
}

/** How many tools the catalogue holds at most (every service × resource × action). */
export const catalogueSize = (): number =>
  SERVICES.reduce((n, [, , resources]) => n + resources.length, 0) * ACTIONS.length;

const plural = (word: string) =>
  /(s|x|ch|sh)$/.test(word)
    ? `${word}es`
    : /[^aeiou]y$/.test(word)
    ? `${word.slice(0, -1)}ies`
    : `${word}s`;

function describeTool(action: Action, svc: string, prefix: string, res: string): string {
  const one = res.replaceAll("_", " ");
  const many = plural(one);
  switch (action) {
    case "list":
      return `Lists ${svc} ${many}, newest first. Results are paginated: pass the returned ` +
        `cursor to get the next page, and filter by parent or status.`;
    case "get":
      return `Gets one ${svc} ${one} by its ID, with all its fields. Use ${prefix}_search_${res} ` +
        `or ${prefix}_list_${res} to find the ID.`;
    case "create":
      return `Creates a ${one} in ${svc} and returns it with its new ID and URL. Requires write ` +
        `access to the parent workspace or project.`;
    case "update":
      return `Updates fields of an existing ${svc} ${one}. Only the fields given are changed; ` +
        `the others keep their values.`;
    case "delete":
      return `Deletes a ${svc} ${one}. This cannot be undone; pass force to delete one that ` +
        `other objects still refer to.`;
    case "search":
      return `Searches ${svc} ${many} by free text and filters (status, owner, dates, labels). ` +
        `Returns the best matches, each with a short snippet.`;
    case "archive":
      return `Archives a ${svc} ${one} so that it no longer shows in lists and searches; an ` +
        `archived ${one} can be restored later.`;
    case "export":
      return `Exports ${svc} ${many} as CSV, JSON or NDJSON to a file path or a signed URL, for ` +
        `reporting or backups.`;
  }
}

function shapeOf(action: Action, svc: string, res: string): z.ZodRawShape {
  const one = res.replaceAll("_", " ");
  const id = z.string().describe(`ID of the ${svc} ${one}`);
  const status = z.enum(["open", "in_progress", "done", "closed"]);
  switch (action) {
    case "list":
      return {
        parent_id: z.string().optional().describe(`Only ${plural(one)} under this parent`),
        status: status.optional().describe("Only items in this state"),
        limit: z.number().int().min(1).max(100).optional().describe("Page size (default 25)"),
        cursor: z.string().optional().describe("Cursor from the previous page"),
        sort: z.enum(["created", "updated", "name"]).optional().describe("Sort key"),
        order: z.enum(["asc", "desc"]).optional().describe("Sort order (default desc)"),
      };
    case "get":
      return {
        id,
        fields: z.array(z.string()).optional().describe("Only these fields (default all)"),
        include_deleted: z.boolean().optional().describe(`Also find a deleted ${one}`),
      };
    case "create":
      return {
        parent_id: z.string().describe(`Workspace or project the ${one} belongs to`),
        name: z.string().min(1).max(255).describe(`Title of the new ${one}`),
        description: z.string().optional().describe("Body text; Markdown is accepted"),
        labels: z.array(z.string()).optional().describe("Labels to attach"),
        owner: z.string().optional().describe("User ID or email of the owner"),
        priority: z.enum(["low", "medium", "high", "urgent"]).optional().describe("Priority"),
        due_date: z.string().optional().describe("Due date, YYYY-MM-DD"),
        metadata: z.record(z.string(), z.string()).optional().describe("Custom key/value fields"),
      };
    case "update":
      return {
        id,
        changes: z.object({
          name: z.string().optional().describe("New title"),
          description: z.string().optional().describe("New body text"),
          status: status.optional().describe("New state"),
          owner: z.string().optional().describe("New owner"),
          labels: z.array(z.string()).optional().describe("Replaces every label"),
        }).describe("Fields to change"),
        notify: z.boolean().optional().describe("Notify watchers (default true)"),
      };
    case "delete":
      return {
        id,
        force: z.boolean().optional().describe("Delete even when other objects refer to it"),
        reason: z.string().optional().describe("Kept in the audit log"),
      };
    case "search":
      return {
        query: z.string().describe("Free text; quotes for a phrase"),
        filters: z.object({
          status: status.optional(),
          owner: z.string().optional().describe("User ID or email"),
          created_after: z.string().optional().describe("ISO 8601 date-time"),
          created_before: z.string().optional().describe("ISO 8601 date-time"),
          labels: z.array(z.string()).optional().describe("Every one of these labels"),
        }).optional().describe("Narrows the matches"),
        limit: z.number().int().min(1).max(50).optional().describe("Most matches (default 10)"),
      };
    case "archive":
      return { id, comment: z.string().optional().describe("Why it was archived") };
    case "export":
      return {
        format: z.enum(["csv", "json", "ndjson"]).describe("File format"),
        destination: z.string().describe("File path, or a signed https URL to PUT to"),
        since: z.string().optional().describe(`Only ${plural(one)} changed since this date`),
        columns: z.array(z.string()).optional().describe("Columns to include (default all)"),
      };
  }
}

/**
 * The first `count` tools of the catalogue, action by action (every service's
 * `list` tools, then every `get`, …), so any prefix spreads over all services.
 *
 * @param count How many, at most {@link catalogueSize}.
 * @throws {RangeError} When `count` is not an integer from 1 to {@link catalogueSize}.
 */
export function manyTools(count: number): ManyTool[] {
  if (!Number.isInteger(count) || count < 1 || count > catalogueSize()) {
    throw new RangeError(`tools: wants an integer from 1 to ${catalogueSize()}, got ${count}`);
  }
  const tools: ManyTool[] = [];
  for (const action of ACTIONS) {
    for (const [prefix, svc, resources] of SERVICES) {
      for (const res of resources) {
        if (tools.length === count) return tools;
        tools.push({
          name: `${prefix}_${action}_${res}`,
          description: describeTool(action, svc, prefix, res),
          shape: shapeOf(action, svc, res),
        });
      }
    }
  }
  return tools;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--tools");
  const count = at >= 0 ? Number(Deno.args[at + 1]) : 1000;
  const server = new McpServer({ name: "many-tools", version: "1.0.0" });
  for (const tool of manyTools(count)) {
    server.registerTool(tool.name, {
      description: tool.description,
      inputSchema: z.object(tool.shape),
    }, (args) => ({
      content: [{
        type: "text" as const,
        text: `called ${tool.name} with ${JSON.stringify(args)}`,
      }],
    }));
  }
  await server.connect(new StdioServerTransport());
}
