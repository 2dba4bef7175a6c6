/**
 * The tests' one support module, over the packages by name: a whole app in this process
 * (app.ts), requests to it (http.ts), people, agents and keys (people.ts), an MCP client (mcp.ts),
 * assertions on errors and the audit log (assertions.ts), and reads of its tables (database.ts).
 * An area's own fixtures (a sales company, report lines) stay in that area's support.ts; a test
 * never imports another area's files.
 */
export * from "./app.ts"
export * from "./assertions.ts"
export * from "./database.ts"
export * from "./files.ts"
export * from "./http.ts"
export * from "./mcp.ts"
export * from "./people.ts"
