import { deepEqual as assertEquals } from "node:assert/strict";
import { browserCommands } from "./browser.ts";

const URL_ = "https://as.test/authorize?x=1";

Deno.test("browserCommands() reads $BROWSER as a list, %s or the URL appended, else the system opener", () => {
  const cases: [string | undefined, string, string[][]][] = [
    [undefined, "linux", [["xdg-open", URL_]]],
    [undefined, "darwin", [["open", URL_]]],
    ["", "linux", [["xdg-open", URL_]]],
    ["lynx", "linux", [["lynx", URL_]]],
    ["firefox --new-tab %s:w3m", "linux", [["firefox", "--new-tab", URL_], ["w3m", URL_]]],
    [" x  -a ::", "linux", [["x", "-a", URL_]]],
  ];
  for (const [browser, os, want] of cases) {
    const got = browserCommands(URL_, browser === undefined ? {} : { BROWSER: browser }, os)
      .map((c) => [c.program, ...c.args]);
    assertEquals(got, want, `BROWSER=${browser} on ${os}`);
  }
});
