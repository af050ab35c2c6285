// The 60-second tour (run by `npm start`): guest JavaScript in the sandbox, MCP servers as modules.
// Two real MCP servers from npm are configured: "everything" (the MCP reference test server) and
// "memory" (a knowledge graph). Neither was started before this script touched it.
import { get_sum, get_structured_content } from "host:mcp-everything";
const memory = require("host:mcp-memory");

// 1. Tool calls look synchronous; arguments are checked against the tool's schema on the host.
const sum = get_sum({ a: 19, b: 23 });

// 2. Structured content arrives as plain data.
const chicago = get_structured_content({ location: "Chicago" });

// 3. The `tools` global has the same tools as async functions: Promise.all runs calls concurrently.
const cities = ["New York", "Chicago", "Los Angeles"];
const forecasts = await Promise.all(cities.map((location) => tools.everything.get_structured_content({ location })));

// 4. $batch: many calls of one tool at once, results in order, one error never stops the others.
const everything = require("host:mcp-everything");
const sums = everything.$batch("get_sum", [{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: "five", b: 6 }, { a: 7, b: 8 }]);

// 5. A knowledge graph in the memory server. Data stays in the sandbox: only what the script returns leaves it.
//    Forecasts from "everything" written into "memory" are a flow between servers: the demo's config
//    allows exactly this one ("flows": { "allow": [["everything", "memory.create_entities"]] }).
memory.create_entities({
  entities: cities.map((city, i) => ({ name: city, entityType: "city", observations: [`${forecasts[i].conditions}, ${forecasts[i].temperature}°`] })),
});
memory.create_relations({ relations: [{ from: "Chicago", to: "New York", relationType: "flights to" }] });
const graph = memory.read_graph({});

// 6. Failed calls throw Errors whose name says why.
let refused;
try {
  memory.create_entities({ entities: 42 });
} catch (error) {
  refused = `${error.name}: ${error.message.slice(0, 80)}…`;
}

// 7. Binary content crosses as Uint8Array.
const image = tools.everything.get_tiny_image({});

// 8. Servers get a minimal environment, never your shell's secrets.
const serverEnv = await tools.everything.get_env({});

return {
  sum,
  chicago,
  batch: sums.map((r) => (r.ok ? r.value : r.error.name)),
  graph: { entities: graph.entities.map((e) => e.name), relations: graph.relations.length },
  refused,
  image: (await image).filter((part) => part && part.data instanceof Uint8Array).map((part) => `${part.mimeType}, ${part.data.length} bytes`),
  serverSawEnv: Object.keys(typeof serverEnv === "object" ? serverEnv : {}).sort(),
};
