import type { ApiKeyUse, Authenticated } from "../authenticate/Credential.ts"
import * as Bounded from "../../kernel/Bounded.ts"

/**
 * API keys the pipeline authenticated a moment ago, remembered for the writes a group commit
 * carries (docs/decisions/0713-credentials-remembered-for-group-commit.md).
 *
 * Every request authenticated by a statement of its own, read with its idempotency record: at 16
 * concurrent posters that was 16 statements in each batch's cycle, about a third of the machine's
 * CPU per posting. A keyed request of an operation that commits in groups may instead take its
 * key's actor from here, and go to its batch without a statement. Nothing remembered is trusted:
 *
 * - the batch's one statement counts the keys it relied on that are still in the state they were
 *   remembered in (`Authenticate.currentCredentialsCount`: the key, its company, its user or agent,
 *   every column authentication decides by) and refuses itself when one is not (LD022), so a key
 *   revoked, a role changed or a kill switch thrown before the batch's statement stops it;
 * - a request that took its actor from here and is not written by a batch (refused by any check,
 *   turned away by the batch, or its batch refused) is not answered from it: it runs again from the
 *   start, authenticated by the statement, and only that run answers. Refusals, replays and the
 *   writes that run alone are therefore always decided on a key read afresh;
 * - a key is reused only until its expiry, the end of its rotation overlap, or a minute after its
 *   last use was written, whichever is first (`ApiKeyUse.reusableUntilMs`): a request past that
 *   authenticates fully and writes the last use, as before.
 *
 * Only a key that authenticated is remembered; a refused one is forgotten. Keyed by the hash of the
 * secret (never the secret), bounded to `entriesMax` keys, the oldest dropped first. One per
 * engine: every process has its own, and its own statements keep it honest.
 *
 * It also keeps the Idempotency-Keys it answered writes under lately (with the hash of the secret
 * they came with, at most `entriesMax`): a retry of one of them authenticates with its statement,
 * which reads the stored answer and replays it, instead of going to a batch that would refuse
 * itself on the taken key (LD020) and then run it again. A retry it does not know (answered by
 * another process, or long ago) still replays by that longer way.
 */

/** The most keys remembered: about 1 KB each. */
export const entriesMax = 10_000

/**
 * What a remembered key lets a request do without a statement: its actor, company and state as
 * authentication found them, without the idempotency record read with them (`stored`).
 */
export type Remembered = Omit<Authenticated, "stored"> & { readonly apiKey: ApiKeyUse }

export class CredentialMemory {
  readonly #entries = new Map<string, Remembered>()
  readonly #answered = new Set<string>()

  /** The key with this secret's hash, if it was remembered and may still be reused at `nowMs`. */
  recall(secretHash: string, nowMs: number): Remembered | undefined {
    const entry = this.#entries.get(secretHash)
    if (entry === undefined) return undefined
    if (nowMs >= entry.apiKey.reusableUntilMs) {
      this.#entries.delete(secretHash)
      return undefined
    }
    return entry
  }

  /** Remembers a key that authentication just let through. */
  remember(authenticated: Authenticated): void {
    const apiKey = authenticated.apiKey
    if (apiKey === undefined) return
    if (!this.#entries.has(apiKey.secretHash)) Bounded.makeRoom(this.#entries, entriesMax)
    this.#entries.set(apiKey.secretHash, { actor: authenticated.actor, company: authenticated.company, apiKey })
  }

  /** Forgets the key with this secret's hash (refused, or found changed). */
  forget(secretHash: string): void {
    this.#entries.delete(secretHash)
  }

  /** A write was answered under this Idempotency-Key, with a secret of this hash. */
  answered(secretHash: string, idempotencyKey: string): void {
    const key = `${secretHash}\n${idempotencyKey}`
    if (this.#answered.has(key)) return
    Bounded.makeRoom(this.#answered, entriesMax)
    this.#answered.add(key)
  }

  /** Whether a write was answered lately under this Idempotency-Key, with a secret of this hash. */
  wasAnswered(secretHash: string, idempotencyKey: string): boolean {
    return this.#answered.has(`${secretHash}\n${idempotencyKey}`)
  }

  get size(): number {
    return this.#entries.size
  }
}
