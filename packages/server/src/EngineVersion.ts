/** The API description version (spec 9) and the server's own version. */
export const Engine = {
  apiVersion: "0.1.0",
  serverVersion: "0.1.0"
} as const
