import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"
import * as HttpReceiptReader from "./HttpReceiptReader.ts"
import * as MasterKey from "./MasterKey.ts"
import * as S3BlobStore from "./S3BlobStore.ts"

/**
 * The receipts area's ports, as a server wires them (adapters/Ports.ts adds this layer): the
 * encrypted blob store over the master key (a PostgreSQL table, or an S3-compatible bucket with
 * `LEDGER_BLOB_STORE=s3`, S3BlobStore.ts), the receipt reader when
 * `LEDGER_RECEIPT_READER_URL` names one, and the inbox's domain and SMTP port
 * (`LEDGER_INBOX_DOMAIN`, default `inbox.localhost`; `LEDGER_INBOUND_SMTP_PORT`, unset: no listener).
 */
export interface ReceiptSettings extends MasterKey.Options {
  readonly receiptReader?: Layer.Layer<Ports.ReceiptReader> | undefined
  readonly environment?: Readonly<Record<string, string | undefined>> | undefined
  /** An S3-compatible bucket for the files (default from LEDGER_BLOB_STORE=s3 and LEDGER_S3_*); none: the database table. */
  readonly objectStore?: S3BlobStore.Settings | undefined
}

export type ReceiptPort = Ports.BlobStore | Ports.ReceiptReader | Ports.InboxSettings

export const inboxSettingsOf = (environment: Readonly<Record<string, string | undefined>>) => {
  const port = Number(environment.LEDGER_INBOUND_SMTP_PORT ?? "")
  return {
    domain: (environment.LEDGER_INBOX_DOMAIN ?? "") === "" ? "inbox.localhost" : environment.LEDGER_INBOX_DOMAIN!.toLowerCase(),
    smtpPort: Number.isInteger(port) && port > 0 && port < 65_536 ? port : null
  }
}

export const wire = (settings: ReceiptSettings, keyless: boolean) => {
  const environment = settings.environment ?? process.env
  const unconfigured: Array<string> = []
  const reader = settings.receiptReader ?? HttpReceiptReader.fromEnvironment(environment)
  if (reader === null) unconfigured.push("receipt reading of images (LEDGER_RECEIPT_READER_URL)")
  if (keyless) unconfigured.push("receipt storage (LEDGER_MASTER_KEY)")
  const bucket = settings.objectStore ?? S3BlobStore.fromEnvironment(environment)
  const blobs: Layer.Layer<Ports.BlobStore, MasterKey.MasterKeyError> = keyless
    ? Ports.BlobStore.layerUnconfigured
    : Layer.unwrap(Effect.try({
      try: () => bucket === null ? Ports.BlobStore.layerDatabase(MasterKey.load(settings).key) : S3BlobStore.layer(MasterKey.load(settings).key, bucket),
      catch: (error) => error instanceof MasterKey.MasterKeyError ? error : new MasterKey.MasterKeyError(String(error))
    }))
  const layer: Layer.Layer<ReceiptPort, MasterKey.MasterKeyError> = Layer.mergeAll(
    blobs,
    reader ?? Ports.ReceiptReader.layerUnconfigured,
    Ports.InboxSettings.layer(inboxSettingsOf(environment))
  )
  return { layer, unconfigured }
}
