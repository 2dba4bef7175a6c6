import { Effect } from "effect"
import * as Outbox from "../pipeline/Outbox.ts"

/** Emits an event in the current transaction; a failure to write it is a defect, as for any SQL. */
export const emit = (type: Outbox.EventType, payload: Record<string, unknown>) => Outbox.emit(type, payload).pipe(Effect.orDie)
