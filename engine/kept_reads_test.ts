import assert from "node:assert/strict";
import { keepReads, keptRead } from "./kept_reads.ts";

Deno.test("keptRead(): reads every time until keeping is on; then reuses a value while the file is the same one", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/cache.json`;
  let reads = 0;
  const read = () => {
    reads++;
    return JSON.parse(Deno.readTextFileSync(path)) as { tools: { name: string }[] };
  };
  await Deno.writeTextFile(path, '{"tools":[{"name":"a"}]}');
  const off = [keptRead(path, read), keptRead(path, read)];
  assert.equal(reads, 2, "off by default: a whole process and the daemon read as before");
  assert.notEqual(off[0], off[1]);

  keepReads();
  const first = keptRead(path, read);
  const again = keptRead(path, read);
  assert.equal(reads, 3);
  assert.equal(again, first, "the same file: the kept value");
  assert.throws(
    () => {
      first.tools[0].name = "changed";
    },
    TypeError,
    "a kept value is frozen through and through",
  );

  // Written as the cache is written: a new file renamed into place (a new inode).
  await Deno.writeTextFile(`${dir}/next.json`, '{"tools":[{"name":"b"}]}');
  await Deno.rename(`${dir}/next.json`, path);
  assert.deepEqual(keptRead(path, read), { tools: [{ name: "b" }] });
  assert.equal(reads, 4);

  // Gone: read (and fail or answer) as the reader does.
  await Deno.remove(path);
  assert.throws(() => keptRead(path, read));
  await Deno.remove(dir, { recursive: true });
});
