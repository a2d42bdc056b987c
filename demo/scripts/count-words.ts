// Count a file's words through the fs server and remember the count in the knowledge graph.
//
// Usage: mcpx run count-words [file]   (the demo copies this to .mcpx/scripts/)
// `fs`, `memory`, `log` are globals in a launched script; no import needed.

export default async function main(args: string[]) {
  const file = args[0] ?? "hello.txt";
  // Its output schema says the file arrives as `{ content }` (see `mcpx types fs.read_text_file`).
  const { content } = await fs.read_text_file({ path: `${Deno.cwd()}/${file}` });
  const words = content.split(/\s+/).filter(Boolean).length;
  log.info("read {file}: {words} words", { file, words });
  await memory.create_entities({
    entities: [{ name: file, entityType: "file", observations: [`${words} words`] }],
  });
  const graph = await memory.read_graph({});
  return { file, words, entitiesInGraph: graph.entities.length };
}
