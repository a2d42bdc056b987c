/**
 * The fish completion script (`mcpx completion fish`), rendered from the
 * {@link CompletionModel} (cli/completion/completion.ts) as `complete -c mcpx` lines
 * whose conditions read the command line with `commandline -opc`.
 *
 * @module
 */

import type { Completion } from "../../ops/op.ts";
import type { CompletionModel, FlagWord } from "./completion_model.ts";

/** A fish single-quoted word. */
function quote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** The `complete` options that offer one completion's candidates. */
function offer(complete: Completion | undefined): string {
  if (complete === undefined) return "";
  if (typeof complete !== "string") return `-a ${quote(complete.join(" "))}`;
  if (complete === "file") return "-F";
  if (complete === "script") return "-F -a '(__mcpx_names script)'";
  return `-a ${quote(`(__mcpx_names ${complete})`)}`;
}

/** The `complete` line of one flag, offered when `condition` holds. */
function flagLine(f: FlagWord, condition: string): string {
  const value = f.value ? (f.complete === "file" ? "-r" : "-x") : "";
  return [
    "complete -c mcpx",
    `-n ${quote(condition)}`,
    ...(f.short ? [`-s ${f.short}`] : []),
    `-l ${f.long}`,
    ...(value ? [value] : []),
    ...(f.value && f.complete ? [offer(f.complete)] : []),
    `-d ${quote(f.help)}`,
  ].join(" ");
}

/**
 * The script: conditions (`__mcpx_*` functions) and one `complete` line per
 * command, flag and positional.
 *
 * @param model The command line to complete.
 * @returns The script's text, ending in a newline.
 */
export function fishScript(model: CompletionModel): string {
  const stops = model.commands.filter((c) => c.stopAtPositional).map((c) => c.command);
  const lines: string[] = [];
  for (const c of model.commands) {
    lines.push(`complete -c mcpx -n __mcpx_none -a ${c.command} -d ${quote(c.summary)}`);
  }
  for (const f of model.global) lines.push(flagLine(f, "__mcpx_flags"));
  for (const c of model.commands) {
    for (const f of c.flags) lines.push(flagLine(f, `__mcpx_flags ${c.command}`));
    c.args.forEach((a, i) => {
      if (a.complete) {
        lines.push(
          `complete -c mcpx -n ${
            quote(`__mcpx_at ${c.command} ${i} ${a.variadic ? "" : i}`.trim())
          } ${offer(a.complete)}`,
        );
      }
    });
    // What follows a script's name is the script's: its arguments are often paths.
    if (c.stopAtPositional) {
      lines.push(`complete -c mcpx -n ${quote(`__mcpx_at ${c.command} 1`)} -F`);
    }
  }
  return `# fish completion for mcpx, generated from its op table by \`mcpx completion fish\`.
# Load it in this shell with \`mcpx completion fish | source\`, or in every one with
# \`mcpx completion fish > ~/.config/fish/completions/mcpx.fish\`.

# Flags whose value is the next word; flags handed on to completion-words.
set -g __mcpx_valued ${model.valued.join(" ")}
set -g __mcpx_forward ${model.forward.join(" ")}
# Commands whose flags end at the first positional: what follows is a script's.
set -g __mcpx_stops ${stops.join(" ")}

# Prints the command word (- for none), the number of positionals after it,
# and 1 when the word being completed is a flag's value (else 0).
function __mcpx_parse
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmd -
    set -l npos 0
    set -l skip 0
    set -l ended 0
    for t in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        if test $ended = 0
            switch $t
                case --
                    set ended 1
                    continue
                case '--*=*'
                    continue
                case '-*'
                    contains -- $t $__mcpx_valued; and set skip 1
                    continue
            end
        end
        if test $cmd = -
            set cmd $t
        else
            set npos (math $npos + 1)
            contains -- $cmd $__mcpx_stops; and set ended 1
        end
    end
    echo $cmd
    echo $npos
    echo $skip
end

# No command word yet.
function __mcpx_none
    set -l p (__mcpx_parse)
    test $p[1] = -; and test $p[3] = 0
end

# Flags are offered: the command is $argv[1] (any, when not given), and the
# words are not a script's.
function __mcpx_flags
    set -l p (__mcpx_parse)
    if set -q argv[1]
        test $p[1] = $argv[1]; or return 1
    end
    contains -- $p[1] $__mcpx_stops; and test $p[2] -ge 1; and return 1
    return 0
end

# The command is $argv[1] and the word being completed is its positional
# number $argv[2] (from 0), or up to $argv[3] when given (unbounded when not).
function __mcpx_at
    set -l p (__mcpx_parse)
    test $p[1] = $argv[1]; and test $p[3] = 0; and test $p[2] -ge $argv[2]; or return 1
    set -q argv[3]; and test $p[2] -gt $argv[3]; and return 1
    return 0
end

# Names of kind $argv[1] from the schema cache and the state files; no server or daemon starts.
function __mcpx_names
    set -l tokens (commandline -opc)
    set -l fwd
    set -l i 2
    while test $i -le (count $tokens)
        set -l t $tokens[$i]
        if contains -- $t $__mcpx_forward
            set -a fwd $t
            if contains -- $t $__mcpx_valued; and test $i -lt (count $tokens)
                set i (math $i + 1)
                set -a fwd $tokens[$i]
            end
        else if string match -q -- '--*=*' $t; and contains -- (string split -m1 = -- $t)[1] $__mcpx_forward
            set -a fwd $t
        end
        set i (math $i + 1)
    end
    command mcpx $fwd completion-words $argv[1] 2>/dev/null
end

complete -c mcpx -f
${lines.join("\n")}
`;
}
