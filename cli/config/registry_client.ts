/**
 * Asking an MCP registry what exists: the read routes of the official MCP
 * Registry API (`GET /v0.1/servers?search=…&version=latest`, `GET
 * /v0.1/servers/{name}/versions/latest`), which the official registry, a
 * vendor's subregistry and an organisation's own all serve (spec 000,
 * "Finding servers that are not configured yet"; decision 0054). No
 * authentication: the read routes need none.
 *
 * @module
 */

import { McpxError, NotFoundError } from "../../core/errors.ts";
import type { RegistryServer } from "../../config/registry_entry.ts";

/** How long one request to the registry may take, ms. */
const REQUEST_TIMEOUT_MS = 15_000;

/** One entry of a registry's answer: the server and the registry's own metadata. */
export interface RegistryRecord {
  server: RegistryServer;
  /** `_meta["io.modelcontextprotocol.registry/official"]`, when the registry gives it. */
  official?: { status?: string; publishedAt?: string; updatedAt?: string; isLatest?: boolean };
}

const OFFICIAL = "io.modelcontextprotocol.registry/official";

/** The API's base: `registry.url` with `/v0.1` added unless it names a version already. */
export function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/v0(\.\d+)?$/.test(trimmed) ? trimmed : `${trimmed}/v0.1`;
}

function recordOf(value: unknown, url: string): RegistryRecord {
  const v = value as { server?: unknown; _meta?: Record<string, unknown> } | null;
  const server = v?.server as RegistryServer | undefined;
  if (!server || typeof server !== "object" || typeof server.name !== "string") {
    throw new McpxError(
      "registry-answer",
      `the registry at ${url} answered with an entry that has no server.name; is registry.url ` +
        `an MCP registry?`,
    );
  }
  const official = v?._meta?.[OFFICIAL] as RegistryRecord["official"];
  return official ? { server, official } : { server };
}

async function getJson(
  url: string,
  signal?: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    const why = timeout.aborted
      ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
      : (error as Error).message;
    throw new McpxError(
      "registry-unreachable",
      `cannot reach the registry at ${url}: ${why}; check the network, or point registry.url ` +
        `(MCPX_REGISTRY_URL) at a registry that answers`,
      { cause: error },
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status !== 404 && (!response.ok || body === undefined)) {
    throw new McpxError(
      "registry-answer",
      `the registry at ${url} answered ${response.status} ${response.statusText}` +
        (body === undefined ? " with a body that is not JSON" : "") +
        `; is registry.url (MCPX_REGISTRY_URL) an MCP registry?`,
    );
  }
  return { status: response.status, body };
}

/**
 * Servers whose name matches `query` (the registry's substring match), their
 * latest versions only, at most `limit`.
 *
 * @param registryUrl The `registry.url` setting.
 * @throws {McpxError} `registry-unreachable` or `registry-answer`.
 */
export async function searchRegistry(
  registryUrl: string,
  query: string,
  limit: number,
  signal?: AbortSignal,
): Promise<RegistryRecord[]> {
  const params = new URLSearchParams({ search: query, version: "latest", limit: String(limit) });
  const url = `${apiBase(registryUrl)}/servers?${params}`;
  const { body } = await getJson(url, signal);
  const servers = (body as { servers?: unknown } | undefined)?.servers;
  if (!Array.isArray(servers)) {
    throw new McpxError(
      "registry-answer",
      `the registry at ${url} answered without a servers list; is registry.url an MCP registry?`,
    );
  }
  return servers.slice(0, limit).map((s) => recordOf(s, url));
}

/**
 * One server's latest version, by its full name (`io.github.owner/name`), or
 * by its short name when exactly one search hit has it.
 *
 * @throws {NotFoundError} When no server has that name, or a short name is
 *   ambiguous (the message lists the full names to choose from).
 * @throws {McpxError} `registry-unreachable` or `registry-answer`.
 */
export async function showRegistryServer(
  registryUrl: string,
  name: string,
  signal?: AbortSignal,
): Promise<RegistryRecord> {
  if (name.includes("/")) {
    const url = `${apiBase(registryUrl)}/servers/${encodeURIComponent(name)}/versions/latest`;
    const { status, body } = await getJson(url, signal);
    if (status === 404) {
      throw new NotFoundError(
        `the registry at ${registryUrl} has no server named ${name}; ` +
          `find one with \`mcpx registry search <words>\``,
      );
    }
    return recordOf(body, url);
  }
  const hits = await searchRegistry(registryUrl, name, 100, signal);
  const short = (full: string) => full.slice(full.lastIndexOf("/") + 1);
  const exact = hits.filter((h) => short(h.server.name) === name);
  if (exact.length === 1) return exact[0];
  const names = (exact.length ? exact : hits).map((h) => h.server.name);
  throw new NotFoundError(
    exact.length > 1
      ? `several servers in the registry are called ${name}; name one in full`
      : `the registry at ${registryUrl} has no server called ${name}; ` +
        `find one with \`mcpx registry search <words>\``,
    names.slice(0, 10),
  );
}
