import { type PGliteInterface, protocol } from "@electric-sql/pglite"
import { Effect, Stream } from "effect"
import type { SqlConnection } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as PgliteBytea from "./PgliteBytea.ts"
import { fail } from "./PgliteErrors.ts"
import * as PgliteProtocol from "./PgliteProtocol.ts"

/**
 * The embedded store's one connection (`PgliteSql` takes turns on it): statements with text
 * parameters as protocol batches against named prepared statements (ADR 0702), their answers read
 * from their bytes (ADR 0715); everything else through PGlite's own `query` and `exec`.
 */

/** Parameters the fast path sends as text: their text form is unambiguous whatever the column type. */
type TextParameter = string | number | bigint | boolean | null | undefined
const isTextParameter = (value: unknown): value is TextParameter =>
  value === null || value === undefined || typeof value === "string" || typeof value === "number" ||
  typeof value === "bigint" || typeof value === "boolean"

/** How many statement texts keep a prepared statement; past it, statements are parsed each time. */
const preparedStatementsMax = 2_000

interface PreparedStatements {
  /** Statement text to the name it is prepared under. */
  readonly names: Map<string, string>
  /**
   * A prepared statement's name to the description of its rows (null: it returns none), read once
   * when it is prepared. Later executions skip the Describe: PGlite's JavaScript took about 5 % of
   * a posting's time parsing the same field names again on every execution (the API key's
   * statement has 25 columns). A prepared statement's row type cannot change (PostgreSQL refuses
   * with 0A000, and the statement is then prepared afresh), so the description stays true.
   */
  readonly descriptions: Map<string, PgliteProtocol.Description | null>
  counter: number
}

const preparedByInstance = new WeakMap<PGliteInterface, PreparedStatements>()

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * Statements with parameters go to PGlite as one protocol message batch (Bind, Describe, Execute,
 * Sync, plus Parse the first time a text is seen) against a named prepared statement, instead of
 * `PGlite.query`, which makes six calls into the WebAssembly engine and parses and plans the text
 * every time. Measured on the project machine, a statement takes about a third of the time
 * (docs/performance.md, docs/decisions/0702). Parameters other than strings, numbers, bigints,
 * booleans and null (dates, arrays, objects, bytes) keep going through `PGlite.query`, whose
 * serializers know their column types. Like `PGlite.query`, the data folder is synced after a
 * statement that leaves no transaction open.
 */
export class PgliteConnection implements SqlConnection.Connection {
  private readonly prepared: PreparedStatements
  /** PGlite's parsers, with `bytea` read natively (PgliteBytea.ts). */
  private readonly parsers: Record<number, PgliteProtocol.Parser>

  constructor(readonly pglite: PGliteInterface) {
    // Prepared statements belong to the PGlite session, which several clients may share.
    let prepared = preparedByInstance.get(pglite)
    if (prepared === undefined) {
      prepared = { names: new Map(), descriptions: new Map(), counter: 0 }
      preparedByInstance.set(pglite, prepared)
    }
    this.prepared = prepared
    this.parsers = { ...pglite.parsers as Record<number, PgliteProtocol.Parser>, [PgliteBytea.byteaOid]: PgliteBytea.fromText }
  }

  private async run(sql: string, given: ReadonlyArray<unknown>, rowMode: "object" | "array"): Promise<ReadonlyArray<any>> {
    // Bytes go as hex text made natively (PgliteBytea.ts): PGlite's own serializer takes seconds on a big file.
    const params = PgliteBytea.textParameters(given, isTextParameter)
    if (params.length === 0 || !params.every(isTextParameter)) {
      const result = await this.pglite.query<any>(sql, params as Array<unknown>, rowMode === "array" ? { rowMode } : undefined)
      return result.rows
    }
    const serialize = protocol.serialize
    let name = this.prepared.names.get(sql)
    const parts: Array<Uint8Array> = []
    let parsing: string | null = null
    if (name === undefined) {
      if (this.prepared.names.size < preparedStatementsMax) {
        name = `ledger_${++this.prepared.counter}`
        parsing = name
      } else {
        name = ""
      }
      parts.push(serialize.parse({ name, text: sql, types: [] }))
    }
    const values = params.map((value) =>
      value === null || value === undefined ? null : typeof value === "boolean" ? (value ? "t" : "f") : String(value)
    )
    // A statement prepared before answers with the description kept then; one prepared now, or
    // unnamed, asks for its description.
    const described = name === "" ? undefined : this.prepared.descriptions.get(name)
    parts.push(serialize.bind({ statement: name, values }))
    if (described === undefined) parts.push(serialize.describe({ type: "P" }))
    parts.push(serialize.execute({}), serialize.sync())
    // The answer's bytes, read by PgliteProtocol rather than by PGlite's own reader (ADR 0715).
    const chunks: Array<Uint8Array> = []
    await this.pglite.execProtocolRawStream(concat(parts), {
      syncToFs: false,
      // A view of PGlite's receive buffer, which the next chunk overwrites.
      onRawData: (chunk) => chunks.push(chunk.slice())
    })
    const answer = PgliteProtocol.read(
      chunks.length === 1 ? chunks[0]! : concat(chunks),
      described,
      this.parsers,
      rowMode
    )
    if (answer.error !== null) {
      const error = answer.error
      // A batch that failed after its Parse succeeded leaves the statement behind: close it so the
      // name is not reused and nothing leaks.
      if (parsing !== null) await this.close(parsing)
      // A table changed under a prepared statement (DDL after it was prepared): prepare it afresh.
      if (parsing === null && name !== "" && error.code === "0A000") {
        this.prepared.names.delete(sql)
        this.prepared.descriptions.delete(name)
        await this.close(name)
        return this.run(sql, params, rowMode)
      }
      throw error
    }
    if (name !== "" && described === undefined && answer.description !== undefined) {
      this.prepared.descriptions.set(name, answer.description)
    }
    if (parsing !== null) this.prepared.names.set(sql, parsing)
    if (answer.status === "I") await this.pglite.syncToFs()
    return answer.rows
  }

  private async close(name: string): Promise<void> {
    const serialize = protocol.serialize
    await this.pglite.execProtocol(concat([serialize.close({ type: "S", name }), serialize.sync()]), {
      syncToFs: false,
      throwOnError: false
    }).catch(() => undefined)
  }

  private rows(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.run(sql, params, "object"), catch: fail(operation) })
  }
  private values(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.run(sql, params, "array"), catch: fail(operation) }) as Effect.Effect<
      ReadonlyArray<ReadonlyArray<unknown>>,
      SqlError
    >
  }
  execute(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    const rows = this.rows("execute", sql, params)
    return transformRows === undefined ? rows : Effect.map(rows, transformRows)
  }
  executeRaw(sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.pglite.query<any>(sql, params as Array<unknown>), catch: fail("executeRaw") })
  }
  executeStream(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    return Stream.fromArrayEffect(this.execute(sql, params, transformRows) as Effect.Effect<Array<any>, SqlError>)
  }
  executeValues(sql: string, params: ReadonlyArray<unknown>) {
    return this.values("executeValues", sql, params)
  }
  executeValuesUnprepared(sql: string, params: ReadonlyArray<unknown>) {
    return this.values("executeValuesUnprepared", sql, params)
  }
  executeUnprepared(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    // Without parameters PGlite's exec takes several statements, as migrations need.
    const rows = params.length === 0
      ? Effect.map(
        Effect.tryPromise({ try: () => this.pglite.exec(sql), catch: fail("executeUnprepared") }),
        (results) => (results[results.length - 1]?.rows ?? []) as ReadonlyArray<any>
      )
      : this.rows("executeUnprepared", sql, params)
    return transformRows === undefined ? rows : Effect.map(rows, transformRows)
  }
}
