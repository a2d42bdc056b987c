import { equal } from "node:assert/strict";
import { openPrivateDatabase } from "./private_sqlite.ts";

Deno.test("openPrivateDatabase() narrows a database file another user could read to 0600", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/old.db`;
    Deno.writeFileSync(path, new Uint8Array(), { mode: 0o644 });
    Deno.chmodSync(path, 0o644);
    const db = openPrivateDatabase(path, 1000);
    db.exec("CREATE TABLE t (x)");
    db.close();
    equal(Deno.statSync(path).mode! & 0o777, 0o600);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
