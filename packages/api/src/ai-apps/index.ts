import * as Connections from "./Connections.ts"

/** AI apps: OAuth connections of MCP clients (spec 3-endpoints-b 4.3). */
export { Connections }

export const operations = [
  Connections.createAiConnection,
  Connections.listAiConnections,
  Connections.getAiConnection,
  Connections.changeAiConnectionLevel,
  Connections.disconnectAiConnection,
  Connections.createFirmAiConnection,
  Connections.listFirmAiConnections,
  Connections.changeFirmAiConnectionLevel,
  Connections.disconnectFirmAiConnection
] as const
