/**
 * A daemon for in-process tests of plain serve's prompts and resources
 * (cli/serve/serve_daemon.ts `ServeDaemon`): each namespace's prompts,
 * resources and templates from a table, renders, reads and completions that
 * say what they were asked, and the daemon's real table of resource
 * subscriptions over one recording instance per namespace, so a test can say
 * an upstream's resource or list changed. Private to cli/serve/ tests.
 *
 * @module
 */

import type { PromptInfo, ResourceInfo, TemplateInfo } from "../../engine/content.ts";
import {
  ResourceSubscriptions,
  type SubscribedInstance,
} from "../../engine/resource_subscriptions.ts";
import { NotFoundError } from "../../core/errors.ts";
import type { ServeDaemon } from "./serve_daemon.ts";

/** One namespace as the fake daemon has it; `error`: its listing fails with that message. */
export interface FakeNamespace {
  prompts?: PromptInfo[];
  resources?: ResourceInfo[];
  resourceTemplates?: TemplateInfo[];
  error?: string;
}

/** An instance that records the requests the subscription table sends it. */
type Recording = SubscribedInstance & { sent: string[] };

/** The fake, what it was sent (`[operation, params]`), its table and its instances. */
export interface FakeDaemon extends ServeDaemon {
  sent: [string, Record<string, unknown>][];
  table: ResourceSubscriptions<Recording>;
  instance(namespace: string): Recording;
}

/**
 * A daemon answering from `namespaces`: a render answers its arguments as
 * text and embeds the resource `test://embedded`; a read answers the URI it
 * was given; a completion answers the argument's value three times over.
 */
export function fakeDaemon(namespaces: Record<string, FakeNamespace>): FakeDaemon {
  const sent: [string, Record<string, unknown>][] = [];
  const table = new ResourceSubscriptions<Recording>();
  const instances = new Map<string, Recording>();
  const instance = (namespace: string) => {
    let one = instances.get(namespace);
    if (!one) {
      const requests: string[] = [];
      one = {
        closed: false,
        sent: requests,
        request(method: string, params: Record<string, unknown>) {
          requests.push(`${method} ${params.uri}`);
          return Promise.resolve({});
        },
      };
      instances.set(namespace, one);
    }
    return one;
  };
  const known = (namespace: string) => {
    if (!(namespace in namespaces)) {
      throw new NotFoundError(`unknown namespace "${namespace}"`, Object.keys(namespaces));
    }
  };
  const record = (operation: string, params: Record<string, unknown>) => {
    sent.push([operation, params]);
  };
  return {
    sent,
    table,
    instance,
    prompts(caller) {
      record("prompts", { session: caller.session });
      return Promise.resolve(
        Object.entries(namespaces).map(([namespace, ns]) => ({
          namespace,
          prompts: ns.error ? [] : ns.prompts ?? [],
          ...(ns.error ? { error: ns.error } : {}),
        })),
      );
    },
    resources(caller) {
      record("resources", { session: caller.session });
      return Promise.resolve(
        Object.entries(namespaces).map(([namespace, ns]) => ({
          namespace,
          resources: ns.error ? [] : ns.resources ?? [],
          resourceTemplates: ns.error ? [] : ns.resourceTemplates ?? [],
          ...(ns.error ? { error: ns.error } : {}),
        })),
      );
    },
    promptGet(caller, namespace, prompt, args) {
      record("promptGet", { session: caller.session, namespace, prompt, arguments: args });
      known(namespace);
      return Promise.resolve({
        messages: [
          { role: "user", content: { type: "text", text: `${prompt} ${JSON.stringify(args)}` } },
          {
            role: "user",
            content: { type: "resource", resource: { uri: "test://embedded", text: "e" } },
          },
        ],
      });
    },
    resourceRead(caller, namespace, uri) {
      record("resourceRead", { session: caller.session, namespace, uri });
      known(namespace);
      return Promise.resolve({ contents: [{ uri, mimeType: "text/plain", text: `read ${uri}` }] });
    },
    complete(caller, namespace, ref, argument, context) {
      record("complete", { session: caller.session, namespace, ref, argument, context });
      known(namespace);
      const v = argument.value;
      return Promise.resolve({ offered: true, values: [`${v}1`, `${v}2`, `${v}3`] });
    },
    request<T>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
      record(operation, params);
      const p = params as {
        namespace?: string;
        uri?: string;
        subscriber: string;
        after?: number;
        holdMs?: number;
        lists?: boolean;
      };
      switch (operation) {
        case "resourceSubscribe":
          return table.subscribe(instance(p.namespace!), p.namespace!, p.uri!, p.subscriber)
            .then(() => ({ subscribed: true }) as T);
        case "resourceUnsubscribe":
          return table.unsubscribe(p.subscriber, p.namespace, p.uri)
            .then((ended) => ({ ended }) as T);
        case "resourceUpdates":
          return table.poll(
            p.subscriber,
            p.after ?? 0,
            p.holdMs ?? 0,
            undefined,
            p.lists,
          ) as Promise<T>;
      }
      return Promise.reject(new Error(`the fake daemon has no ${operation}`));
    },
  };
}
