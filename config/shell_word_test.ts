import assert from "node:assert/strict";
import { shellWord, splitShellWords } from "./shell_word.ts";

Deno.test("splitShellWords() splits on blanks and honours quotes and backslashes", () => {
  const cases: [string, string[]][] = [
    ["", []],
    ["   ", []],
    ["npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio", [
      "npx",
      "-y",
      "@modelcontextprotocol/server-everything@2026.8.31",
      "stdio",
    ]],
    [`node  "my server.js"\t--x`, ["node", "my server.js", "--x"]],
    [`a'b c'd`, ["ab cd"]],
    [`"say \\"hi\\" \\n"`, [`say "hi" \\n`]],
    [`x\\ y`, ["x y"]],
    [`''`, [""]],
    [`echo $HOME; rm -rf ~ | cat`, ["echo", "$HOME;", "rm", "-rf", "~", "|", "cat"]],
  ];
  for (const [line, words] of cases) assert.deepEqual(splitShellWords(line), words, line);
});

Deno.test("splitShellWords() names an unclosed quote and a trailing backslash", () => {
  assert.throws(() => splitShellWords(`node "a`), /opens a " at character 6 and never closes it/);
  assert.throws(() => splitShellWords(`node 'a`), /opens a ' at character 6/);
  assert.throws(() => splitShellWords(`node a\\`), /ends with a lone \\/);
});

Deno.test("splitShellWords() reads back what shellWord() quotes", () => {
  const words = ["plain", "it's", "a b", `"q"`, "$X", ""];
  assert.deepEqual(splitShellWords(words.map(shellWord).join(" ")), words);
});
