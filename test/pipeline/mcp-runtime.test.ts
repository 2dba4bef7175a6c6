import { Deferred, Effect, Fiber, Logger } from "effect"
import { describe, expect, it } from "vitest"
import type { Dispatcher, Invocation, Outcome } from "@ledger/engine"
import { Mcp } from "@ledger/server"

/**
 * An MCP tool call runs its Effect with the runtime of the fiber serving the request: its logger
 * (and with it its services and tracer), and its interruption when the client goes away. A
 * dispatcher of the test's own stands in for the engine.
 */

const toolCall = (id: number) => {
  const body = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_me", arguments: {} } }
  return {
    parsedBody: body,
    request: new Request("http://ledger.test/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  }
}

const served = (execute: (invocation: Invocation) => Effect.Effect<Outcome>) =>
  Mcp.handle({
    ...toolCall(1),
    dispatcher: { execute } as Dispatcher["Service"],
    headers: { credential: "ldg_test", agentModel: null, agentRunId: null, company: null }
  })

describe("MCP tool calls on the server's runtime", () => {
  it("log through the logger of the fiber that serves the request", async () => {
    const logged: Array<unknown> = []
    const logger = Logger.make(({ message }) => logged.push(message))
    const response = await Effect.runPromise(served((invocation) =>
      Effect.as(Effect.logInfo(`called ${invocation.operationId}`), { status: 200, body: { ok: true }, headers: {} })
    ).pipe(Effect.provide(Logger.layer([logger]))))
    expect(response.status).toBe(200)
    const answer = await response.json()
    expect(answer.result.structuredContent).toEqual({ ok: true })
    expect(logged.flat()).toContain("called getMe")
  })

  it("are interrupted when the request's fiber is", async () => {
    const program = Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(served(() =>
        Deferred.succeed(started, undefined).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
        )
      ))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("5 seconds"))
      return "interrupted"
    })
    expect(await Effect.runPromise(program)).toBe("interrupted")
  })
})
