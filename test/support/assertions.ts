import { expect } from "vitest"
import { ApiError } from "@ledger/api"
import type { TestApp } from "./app.ts"

/** Asserts the spec's error body (DECISIONS.md) with a type Ledger declares, and returns the type. */
export const expectErrorBody = (body: unknown, type?: string): string => {
  expect(body).toBeTypeOf("object")
  const error = (body as { error?: Record<string, unknown> }).error
  expect(error, JSON.stringify(body)).toBeTypeOf("object")
  expect(Object.keys(body as object)).toEqual(["error"])
  expect(error!.type).toBeTypeOf("string")
  expect(error!.message).toBeTypeOf("string")
  expect(ApiError.errorTypes).toContain(error!.type)
  for (const key of Object.keys(error!)) expect(["type", "message", "details"]).toContain(key)
  if (error!.details !== undefined) expect(error!.details).toBeTypeOf("object")
  if (type !== undefined) expect(error!.type, JSON.stringify(body)).toBe(type)
  return error!.type as string
}

/** An error's message with those of its causes (drivers wrap the database's own message in a cause). */
export const messageChain = (error: unknown): string => {
  const messages: Array<string> = []
  let current: any = error
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    messages.push(String(current.message ?? current))
    current = current.cause
  }
  return messages.join(" / ")
}

/** The company's audit log, newest first, as the given key sees it (all pages). */
export const auditEvents = async (app: TestApp, key: string): Promise<Array<any>> => {
  const events: Array<any> = []
  let cursor: string | null = null
  do {
    const page: { status: number; body: any } = await app.call(
      "GET",
      `/v1/audit/events?limit=1000${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      { token: key }
    )
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    events.push(...page.body.data)
    cursor = page.body.next_cursor
  } while (cursor !== null)
  return events
}
