import { Effect } from "effect"
import { Base64Url } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { Limits } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import { Entropy } from "../ports/Entropy.ts"
import * as OAuthAccessToken from "./AccessToken.ts"
import { accessTokenSeconds, codeSeconds, refreshTokenSeconds } from "./ConnectionRules.ts"

/**
 * The SQL of the authorization server: registered clients, authorization codes, and access and
 * refresh tokens. Codes and tokens are random (256 bits) and stored as their SHA-256 only.
 */

export const accessPrefix = OAuthAccessToken.prefix
export const refreshPrefix = "ldgrt_"
export const codePrefix = "ldgac_"
export const clientPrefix = "ldgc_"

export const randomSecret = Effect.fn("OAuthStore.randomSecret")(function*(prefix: string) {
  const entropy = yield* Entropy
  return `${prefix}${Base64Url.encode(yield* entropy.bytes(32))}`
})

const later = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1_000).toISOString()

export interface Client {
  readonly clientId: string
  readonly clientName: string | null
  readonly redirectUris: ReadonlyArray<string>
}

/**
 * A client as the authorization endpoint and the approval know it, or null. A client registered at
 * `/oauth/register` that no connection names is unknown `Limits.oauthUnusedClientHours` after it
 * registered (checked here, on use; `deleteUnusedClients` removes it later). Clients of metadata
 * documents have their own cache time (`documentFresh`).
 */
export const findClient = Effect.fn("OAuthStore.findClient")(function*(clientId: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const unusedSince = new Date(Date.parse(now) - Limits.oauthUnusedClientHours * 3_600_000).toISOString()
  const rows = yield* sql<Record<string, unknown>>`SELECT client_id, client_name, redirect_uris FROM oauth_clients c
    WHERE client_id = ${clientId}
      AND (document_fetched_at IS NOT NULL OR created_at > ${unusedSince}
        OR EXISTS (SELECT 1 FROM ai_connections x WHERE x.client_id = c.client_id))`
  const row = rows[0]
  if (row === undefined) return null
  return {
    clientId: String(row.client_id),
    clientName: (row.client_name as string | null) ?? null,
    redirectUris: Row.textArray<string>(row.redirect_uris)
  } satisfies Client
})

/** How many expired unused registrations one registration deletes: enough to outpace the registration limit. */
const unusedDeletedMax = 100

/** Deletes registered clients made before `before` that no connection names, a bounded few at a time. */
export const deleteUnusedClients = Effect.fn("OAuthStore.deleteUnusedClients")(function*(before: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM oauth_clients WHERE client_id IN (
    SELECT client_id FROM oauth_clients c WHERE document_fetched_at IS NULL AND created_at < ${before}
      AND NOT EXISTS (SELECT 1 FROM ai_connections x WHERE x.client_id = c.client_id)
    ORDER BY created_at LIMIT ${unusedDeletedMax})`
})

export const insertClient = Effect.fn("OAuthStore.insertClient")(function*(
  clientName: string | null, redirectUris: ReadonlyArray<string>, metadata: Record<string, unknown>, now: string
) {
  const sql = yield* SqlClient.SqlClient
  const clientId = yield* randomSecret(clientPrefix)
  yield* sql`INSERT INTO oauth_clients ${sql.insert({
    client_id: clientId,
    client_name: clientName,
    redirect_uris: JSON.stringify(redirectUris),
    metadata: JSON.stringify(metadata),
    created_at: now
  })}`
  return clientId
})

export interface CodeGrant {
  readonly connectionId: number
  readonly clientId: string
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: string
}

export const insertCode = Effect.fn("OAuthStore.insertCode")(function*(grant: CodeGrant, now: string) {
  const sql = yield* SqlClient.SqlClient
  const code = yield* randomSecret(codePrefix)
  const expiresAt = later(now, codeSeconds)
  yield* sql`INSERT INTO oauth_codes ${sql.insert({
    code_hash: Secret.sha256Hex(code),
    connection_id: grant.connectionId,
    client_id: grant.clientId,
    redirect_uri: grant.redirectUri,
    code_challenge: grant.codeChallenge,
    resource: grant.resource,
    expires_at: expiresAt
  })}`.pipe(Effect.orDie)
  return { code, expiresAt }
})

/**
 * A code's row as it was, locked, and marked used: of two exchanges of one code at once, the
 * second waits for the first and then sees it used.
 */
export const takeCode = Effect.fn("OAuthStore.takeCode")(function*(code: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const hash = Secret.sha256Hex(code)
  const rows = yield* sql<Record<string, unknown>>`SELECT o.*, x.status AS connection_status, x.level FROM oauth_codes o
    JOIN ai_connections x ON x.id = o.connection_id WHERE o.code_hash = ${hash} FOR UPDATE OF o`
  if (rows[0] === undefined) return null
  if (rows[0].used_at === null) yield* sql`UPDATE oauth_codes SET used_at = ${now} WHERE code_hash = ${hash}`
  return rows[0]
})

/** A code reused: every token it led to ends (OAuth 2.1 4.1.3). */
export const revokeConnectionTokens = Effect.fn("OAuthStore.revokeConnectionTokens")(function*(connectionId: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE connection_id = ${connectionId} AND revoked_at IS NULL`
})

export interface Issued {
  readonly accessToken: string
  readonly refreshToken: string
}

/** A new access token and refresh token in a family (a new family for a code's first exchange). */
export const issueTokens = Effect.fn("OAuthStore.issueTokens")(function*(
  connectionId: number, clientId: string, resource: string, family: string | null, now: string
) {
  const sql = yield* SqlClient.SqlClient
  const accessToken = yield* randomSecret(accessPrefix)
  const refreshToken = yield* randomSecret(refreshPrefix)
  const familyId = family ?? Secret.sha256Hex(refreshToken).slice(0, 32)
  const common = { connection_id: connectionId, family: familyId, client_id: clientId, resource, created_at: now }
  yield* sql`INSERT INTO oauth_tokens ${sql.insert([
    { ...common, token_hash: Secret.sha256Hex(accessToken), kind: "access", expires_at: later(now, accessTokenSeconds) },
    { ...common, token_hash: Secret.sha256Hex(refreshToken), kind: "refresh", expires_at: later(now, refreshTokenSeconds) }
  ])}`
  return { accessToken, refreshToken } satisfies Issued
})

/** A refresh token's row with its connection, locked, or null. */
export const findRefresh = Effect.fn("OAuthStore.findRefresh")(function*(token: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT t.*, x.status AS connection_status, x.level FROM oauth_tokens t
    JOIN ai_connections x ON x.id = t.connection_id
    WHERE t.token_hash = ${Secret.sha256Hex(token)} AND t.kind = 'refresh' FOR UPDATE OF t`
  return rows[0] ?? null
})

export const markUsed = Effect.fn("OAuthStore.markUsed")(function*(token: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE oauth_tokens SET used_at = ${now} WHERE token_hash = ${Secret.sha256Hex(token)}`
})

/** Reuse detected: the whole family, access and refresh tokens, ends. */
export const revokeFamily = Effect.fn("OAuthStore.revokeFamily")(function*(family: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE family = ${family} AND revoked_at IS NULL`
})

/** RFC 7009: a token of the client ends; a refresh token takes its family with it. */
export const revokeToken = Effect.fn("OAuthStore.revokeToken")(function*(token: string, clientId: string | null, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT kind, family, client_id FROM oauth_tokens
    WHERE token_hash = ${Secret.sha256Hex(token)}`
  const row = rows[0]
  if (row === undefined || (clientId !== null && row.client_id !== clientId)) return
  if (row.kind === "refresh") return yield* revokeFamily(String(row.family), now)
  yield* sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE token_hash = ${Secret.sha256Hex(token)} AND revoked_at IS NULL`
})

/** Whether the client with this metadata document URL is kept and still trusted at `now`. */
export const documentFresh = Effect.fn("OAuthStore.documentFresh")(function*(clientId: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ fresh: unknown }>`SELECT document_expires_at > ${now}::timestamptz AS fresh FROM oauth_clients
    WHERE client_id = ${clientId}`
  return rows[0]?.fresh === true
})

/** Keeps (or refreshes) a client read from its metadata document, trusted until `expiresAt`. */
export const saveDocumentClient = Effect.fn("OAuthStore.saveDocumentClient")(function*(
  clientId: string, clientName: string | null, redirectUris: ReadonlyArray<string>, metadata: Record<string, unknown>, now: string, expiresAt: string
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO oauth_clients ${sql.insert({
    client_id: clientId,
    client_name: clientName,
    redirect_uris: JSON.stringify(redirectUris),
    metadata: JSON.stringify(metadata),
    created_at: now,
    document_fetched_at: now,
    document_expires_at: expiresAt
  })} ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris,
    metadata = EXCLUDED.metadata, document_fetched_at = EXCLUDED.document_fetched_at, document_expires_at = EXCLUDED.document_expires_at`
})
