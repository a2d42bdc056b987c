/**
 * The zsh completion script (`mcpx completion zsh`), rendered from the
 * {@link CompletionModel} (cli/completion/completion.ts) as `_arguments` specs: one set
 * for the global flags and the command word, one per command for its flags
 * and positionals. It works sourced (after `compinit`) and as an autoloaded
 * `_mcpx` on `$fpath` (`#compdef mcpx`).
 *
 * @module
 */

import type { Completion } from "../../ops/op.ts";
import type { CompletionModel, FlagWord } from "./completion_model.ts";

/** A zsh single-quoted word. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Text inside an `_arguments` description (`[…]`) or message (`:…:`). */
function escape(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("[", "\\[").replaceAll("]", "\\]")
    .replaceAll(":", "\\:");
}

/** The `_arguments` action for one completion: what follows `:message:`. */
function action(complete: Completion | undefined): string {
  if (complete === undefined) return " ";
  if (typeof complete !== "string") return `(${complete.join(" ")})`;
  if (complete === "file") return "_files";
  if (complete === "script") return "_mcpx_script";
  return `_mcpx_names ${complete}`;
}

/** The `_arguments` specs of one flag (its long and short spellings). */
function flagSpecs(f: FlagWord): string[] {
  const spellings = [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])];
  const exclusive = f.multiple ? "*" : spellings.length > 1 ? `(${spellings.join(" ")})` : "";
  const value = f.value ? `:${escape(f.long)}:${action(f.complete)}` : "";
  return spellings.map((s) =>
    quote(
      `${exclusive}${s}${f.value ? (s.startsWith("--") ? "=" : "+") : ""}[${
        escape(f.help)
      }]${value}`,
    )
  );
}

/**
 * The script: `_mcpx`, registered with `compdef _mcpx mcpx` when sourced.
 *
 * @param model The command line to complete.
 * @returns The script's text, ending in a newline.
 */
export function zshScript(model: CompletionModel): string {
  const commands = model.commands.map((c) => `    ${quote(`${c.command}:${c.summary}`)}`);
  const cases = model.commands.map((c) => {
    const specs = [
      // Options end at the first positional: what follows is a script's.
      ...(c.stopAtPositional ? [`-A ${quote("-*")}`] : []),
      "$global",
      ...c.flags.flatMap(flagSpecs),
      ...c.args.map((a, i) =>
        a.variadic
          ? quote(
            `*${c.stopAtPositional && !a.complete ? ":" : ""}:${escape(a.name)}:${
              c.stopAtPositional && !a.complete ? "_files" : action(a.complete)
            }`,
          )
          : quote(`${i + 1}:${escape(a.name)}:${action(a.complete)}`)
      ),
    ];
    return `      ${c.command})\n        _arguments -S ${
      specs.join(" \\\n          ")
    } && ret=0\n        ;;`;
  });
  return `#compdef mcpx
# zsh completion for mcpx, generated from its op table by \`mcpx completion zsh\`.
# Load it in this shell with \`source <(mcpx completion zsh)\` (after compinit), or in every
# one by writing it to a file named _mcpx in a directory on $fpath.

# Names of the kind named last from the schema cache and the state files; no server or daemon
# starts. The arguments before it are compadd's, as _arguments passes them.
_mcpx_names() {
  local kind=$argv[-1]
  local -a fwd names
  local -a forward=(${model.forward.join(" ")})
  local -a valued=(${model.valued.join(" ")})
  local i w
  for ((i = 2; i < $#_mcpx_line; i++)); do
    w=$_mcpx_line[i]
    if (( $forward[(Ie)$w] )); then
      if (( $valued[(Ie)$w] )); then
        fwd+=("$w" "$_mcpx_line[i+1]")
        i=$((i + 1))
      else
        fwd+=("$w")
      fi
    elif [[ $w == --*=* ]] && (( $forward[(Ie)\${w%%=*}] )); then
      fwd+=("$w")
    fi
  done
  names=(\${(f)"$(command mcpx $fwd completion-words $kind 2>/dev/null)"})
  compadd "\${@[1,-2]}" -a names
}

# A script's name (mcpx scripts) or a path.
_mcpx_script() {
  _mcpx_names "$@" script
  _files "$@"
}

_mcpx() {
  local curcontext=$curcontext state state_descr line ret=1
  local -a _mcpx_line
  _mcpx_line=("\${words[@]}")
  local -a global
  global=(
    ${model.global.flatMap(flagSpecs).join("\n    ")}
  )
  _arguments -C -S $global ': :->command' '*:: :->argument' && ret=0
  case $state in
    command)
      local -a commands
      commands=(
${commands.join("\n")}
      )
      _describe -t commands 'mcpx command' commands && ret=0
      ;;
    argument)
      curcontext=\${curcontext%:*:*}:mcpx-$words[1]:
      case $words[1] in
${cases.join("\n")}
      esac
      ;;
  esac
  return ret
}

if [[ $funcstack[1] == _mcpx ]]; then
  _mcpx "$@"
else
  compdef _mcpx mcpx
fi
`;
}
