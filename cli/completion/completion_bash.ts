/**
 * The bash completion script (`mcpx completion bash`), rendered from the
 * {@link CompletionModel} (cli/completion/completion.ts). It needs bash 4 (`compopt`,
 * `mapfile`) and nothing from the bash-completion package.
 *
 * How a word completes is written as a spec the script's `_mcpx_offer`
 * reads: `words <w…>` (a fixed list), `file`, `names <kind>` (asked of
 * `mcpx completion-words`), `script` (script names and files).
 *
 * @module
 */

import type { Completion } from "../../ops/op.ts";
import type { CompletionModel } from "./completion_model.ts";

/** The spec `_mcpx_offer` reads for one completion; empty: nothing to offer. */
function spec(complete: Completion | undefined): string {
  if (complete === undefined) return "";
  if (typeof complete !== "string") return `words ${complete.join(" ")}`;
  if (complete === "file" || complete === "script") return complete;
  return `names ${complete}`;
}

/** A bash single-quoted word. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The script: `_mcpx`, registered with `complete -F _mcpx mcpx`.
 *
 * @param model The command line to complete.
 * @returns The script's text, ending in a newline.
 */
export function bashScript(model: CompletionModel): string {
  const spell = (
    f: { long: string; short?: string },
  ) => [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])];
  const flagCases = model.commands.filter((c) => c.flags.length).map((c) =>
    `    ${c.command}) echo ${quote(c.flags.flatMap(spell).join(" "))} ;;`
  );
  const ownValues = model.commands.flatMap((c) =>
    c.flags.filter((f) => f.value && f.complete).flatMap((f) =>
      spell(f).map((s) =>
        `    ${quote(`${c.command} ${s}`)}) echo ${quote(spec(f.complete))}; return ;;`
      )
    )
  );
  const globalValues = model.global.filter((f) => f.value && f.complete).map((f) =>
    `    ${spell(f).join(" | ")}) echo ${quote(spec(f.complete))} ;;`
  );
  // A variadic positional is the last: `*` takes its position and every one after.
  const argCases = model.commands.filter((c) => c.args.some((a) => a.complete)).map((c) => {
    const positions = c.args.flatMap((a, i) =>
      !a.complete
        ? []
        : a.variadic
        ? [`*) (($2 >= ${i})) && echo ${quote(spec(a.complete))} ;;`]
        : [`${i}) echo ${quote(spec(a.complete))} ;;`]
    );
    return `    ${c.command}) case $2 in ${positions.join(" ")} esac ;;`;
  });
  const stops = model.commands.filter((c) => c.stopAtPositional).map((c) => c.command);
  return `# bash completion for mcpx, generated from its op table by \`mcpx completion bash\`.
# Load it in this shell with \`source <(mcpx completion bash)\`, or in every one with
# \`mcpx completion bash > ~/.local/share/bash-completion/completions/mcpx\`.

_mcpx_commands=${quote(model.commands.map((c) => c.command).join(" "))}
_mcpx_global=${quote(model.global.flatMap(spell).join(" "))}
# Flags whose value is the next word; flags handed on to completion-words.
_mcpx_valued=${quote(` ${model.valued.join(" ")} `)}
_mcpx_forward=${quote(` ${model.forward.join(" ")} `)}
# Commands whose flags end at the first positional: what follows is a script's.
_mcpx_stops=${quote(` ${stops.join(" ")} `)}

# The flags of command $1 (none yet: the global ones only).
_mcpx_flags() {
  case $1 in
${flagCases.join("\n")}
  esac
  echo "$_mcpx_global"
}

# How the value of flag $2 of command $1 completes.
_mcpx_value() {
  case "$1 $2" in
${ownValues.join("\n")}
  esac
  case $2 in
${globalValues.join("\n")}
  esac
}

# How positional $2 (from 0) of command $1 completes.
_mcpx_arg() {
  case $1 in
${argCases.join("\n")}
  esac
}

# Names of kind $1 from the schema cache and the state files; no server or daemon starts.
_mcpx_names() {
  command mcpx "\${_mcpx_fwd[@]}" completion-words "$1" 2>/dev/null
}

# Sets COMPREPLY from spec $1 for the word $2.
_mcpx_offer() {
  local IFS=$'\\n'
  case $1 in
    "words "*) mapfile -t COMPREPLY < <(IFS=$' \\t\\n'; compgen -W "\${1#words }" -- "$2") ;;
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$2")
      ;;
    script)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -W "$(_mcpx_names script)" -- "$2"; compgen -f -- "$2")
      ;;
    "names "*) mapfile -t COMPREPLY < <(compgen -W "$(_mcpx_names "\${1#names }")" -- "$2") ;;
    *) COMPREPLY=() ;;
  esac
}

_mcpx() {
  COMPREPLY=()
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local cmd="" pos=0 flag="" ended=0 i w
  local -a _mcpx_fwd=()
  # \`--flag=value\`: bash splits the word at "=" (COMP_WORDBREAKS).
  if [[ $cur == "=" ]]; then
    flag=$prev cur=""
  elif [[ $prev == "=" && COMP_CWORD -ge 2 ]]; then
    flag=\${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $prev == -* && $_mcpx_valued == *" $prev "* ]]; then
    flag=$prev
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if ((ended == 0)) && [[ $w == -* ]]; then
      if [[ $w == -- ]]; then
        ended=1
      elif [[ $_mcpx_valued == *" $w "* ]]; then
        [[ \${COMP_WORDS[i+1]} == "=" ]] && i=$((i + 1))
        i=$((i + 1))
        [[ $_mcpx_forward == *" $w "* && i -lt COMP_CWORD ]] && _mcpx_fwd+=("$w" "\${COMP_WORDS[i]}")
      else
        [[ \${COMP_WORDS[i+1]} == "=" ]] && i=$((i + 2))
        [[ $_mcpx_forward == *" $w "* ]] && _mcpx_fwd+=("$w")
      fi
    elif [[ -z $cmd ]]; then
      cmd=$w
    else
      pos=$((pos + 1))
      [[ $_mcpx_stops == *" $cmd "* ]] && ended=1
    fi
  done
  if [[ -n $flag ]]; then
    _mcpx_offer "$(_mcpx_value "$cmd" "$flag")" "$cur"
  elif [[ -n $cmd && $_mcpx_stops == *" $cmd "* && pos -ge 1 ]]; then
    _mcpx_offer file "$cur"
  elif [[ $cur == -* && ended -eq 0 ]]; then
    _mcpx_offer "words $(_mcpx_flags "$cmd")" "$cur"
  elif [[ -z $cmd ]]; then
    _mcpx_offer "words $_mcpx_commands" "$cur"
  else
    _mcpx_offer "$(_mcpx_arg "$cmd" "$pos")" "$cur"
  fi
  return 0
}

complete -F _mcpx mcpx
`;
}
