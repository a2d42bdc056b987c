/**
 * The words of `mcpx service` (ops/service_ops.ts), in a module of their own
 * that loads no package: its handler (cli/service/service.ts) checks an action
 * against them at run time, and importing the op's module for that loaded zod
 * and had deno fetch zod's registry metadata on every `mcpx service`.
 *
 * @module
 */

/** The service managers `mcpx service` writes for: `linux` (systemd), `macos` (launchd). */
export const SERVICE_PLATFORMS = ["linux", "macos"] as const;

/** The actions of `mcpx service`. */
export const SERVICE_ACTIONS = ["install", "uninstall", "status"] as const;
