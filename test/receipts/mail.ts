import { connect } from "node:net"
import { InboxListener } from "@ledger/server/adapters"
import type { TestApp } from "../support/index.ts"

/** Mail for the inbox tests: MIME messages, the server's SMTP listener over a test app, and a tiny SMTP client. */

export const trustedAuthservId = "mx.ledger.test"

export const mime = (options: {
  readonly from: string
  readonly to: string
  readonly subject?: string
  readonly messageId?: string
  readonly authenticated?: boolean
  readonly attachments?: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array; readonly type?: string }>
  readonly html?: string
}): string => {
  const boundary = "ledger-boundary-42"
  const auth = options.authenticated === false
    ? `Authentication-Results: ${trustedAuthservId}; spf=fail smtp.mailfrom=${options.from}; dkim=none; dmarc=fail`
    : `Authentication-Results: ${trustedAuthservId}; spf=pass smtp.mailfrom=${options.from}; dkim=pass header.d=example.com; dmarc=pass`
  const parts = (options.attachments ?? []).map((file) => [
    `--${boundary}`,
    `Content-Type: ${file.type ?? "application/octet-stream"}; name="${file.name}"`,
    "Content-Transfer-Encoding: base64",
    `Content-Disposition: attachment; filename="${file.name}"`,
    "",
    Buffer.from(file.bytes).toString("base64").replace(/.{76}/g, "$&\r\n"),
    ""
  ].join("\r\n"))
  return [
    auth,
    `From: ${options.from}`,
    `To: ${options.to}`,
    `Subject: ${options.subject ?? "Receipt"}`,
    `Message-ID: <${options.messageId ?? `${Math.random().toString(36).slice(2)}@example.com`}>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Please find the receipt attached.",
    "",
    ...(options.html === undefined ? [] : [`--${boundary}`, "Content-Type: text/html; charset=utf-8", "", options.html, ""]),
    ...parts,
    `--${boundary}--`,
    ""
  ].join("\r\n")
}

/** The server's own inbox listener (server/src/mail/InboxListener.ts) over a test app, on a free port. */
export const listen = async (app: TestApp) => {
  const listener = await InboxListener.start(
    { host: "127.0.0.1", port: 0, domain: "inbox.localhost", trustedAuthservId, tls: null },
    (effect) => app.runtime.runPromise(effect)
  )
  return { port: listener.port, close: listener.close }
}

/** Sends one message over SMTP; answers the reply code to the message's data. */
export const send = (port: number, from: string, to: string, data: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const steps = [`EHLO client.test`, `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, "DATA", `${data.replace(/\r\n\./g, "\r\n..")}\r\n.`, "QUIT"]
    let buffer = ""
    let step = 0
    let dataCode = 0
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1")
      const lines = buffer.split("\r\n")
      buffer = lines.pop() ?? ""
      for (const line of lines) {
        if (/^\d{3}-/.test(line)) continue
        const code = Number(line.slice(0, 3))
        if (step === 5) dataCode = code
        if (step >= steps.length || (code >= 500 && step < 5)) {
          socket.end()
          resolve(step === 5 || step === 6 ? dataCode : code)
          return
        }
        socket.write(`${steps[step++]}\r\n`)
      }
    })
    socket.on("error", reject)
    socket.on("close", () => resolve(dataCode))
  })
