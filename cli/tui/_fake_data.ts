/**
 * A {@link TuiData} for tests: every request waits until the test replies to
 * it, so a test decides the order replies arrive in (a late one included),
 * and sees which requests the browser made.
 *
 * @module
 */

import type { Grid } from "./grid.ts";
import type {
  GridQuery,
  GridView,
  LiveEvent,
  LiveMode,
  NamespaceItem,
  ToolItem,
  TuiData,
} from "./tui_data.ts";

/** One request the browser made, waiting for the test's reply. */
export interface FakeRequest {
  /** `namespaces`, `tools:<namespace>` or `grid:<view>`. */
  what: string;
  query?: GridQuery;
  signal: AbortSignal;
  reply(value: unknown): void;
  fail(error: Error): void;
}

/** The fake, its requests, and a way to send live events. */
export interface FakeData extends TuiData {
  requests: FakeRequest[];
  /** The oldest request for `what` not replied to yet. */
  waiting(what: string): FakeRequest;
  /** Sends a live event to the browser (after `follow` was called). */
  emit(event: LiveEvent): void;
  mode(mode: LiveMode): void;
}

/** A fake whose requests wait for the test. */
export function fakeData(): FakeData {
  const requests: FakeRequest[] = [];
  const replied = new Set<FakeRequest>();
  let listener: (event: LiveEvent) => void = () => {};
  let onMode: (mode: LiveMode) => void = () => {};
  const ask = <T>(what: string, signal: AbortSignal, query?: GridQuery): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const request: FakeRequest = {
        what,
        signal,
        ...(query ? { query } : {}),
        reply(value) {
          replied.add(request);
          resolve(value as T);
        },
        fail(error) {
          replied.add(request);
          reject(error);
        },
      };
      requests.push(request);
    });
  return {
    requests,
    waiting(what) {
      const request = requests.find((r) => r.what === what && !replied.has(r));
      if (!request) {
        throw new Error(
          `no request for ${what} is waiting; made: ${requests.map((r) => r.what).join(", ")}`,
        );
      }
      return request;
    },
    emit: (event) => listener(event),
    mode: (mode) => onMode(mode),
    namespaces: (signal) => ask<NamespaceItem[]>("namespaces", signal),
    tools: (namespace, signal) => ask<ToolItem[]>(`tools:${namespace}`, signal),
    grid: (view: GridView, query, signal) => ask<Grid>(`grid:${view}`, signal, query),
    follow(l, m) {
      listener = l;
      onMode = m;
    },
  };
}

/** Namespace items named `names`, for {@link FakeRequest.reply}. */
export function namespaceItems(...names: string[]): NamespaceItem[] {
  return names.map((namespace) => ({
    namespace,
    tools: 2,
    state: "idle",
    description: `the ${namespace} server`,
  }));
}

/** Tool items named `names`, each with a one-line signature. */
export function toolItems(...names: string[]): ToolItem[] {
  return names.map((name) => ({
    name,
    tool: name,
    description: `does ${name}\nin two lines`,
    signature: `function ${name}(args: { x: string }): Promise<string>;`,
  }));
}
