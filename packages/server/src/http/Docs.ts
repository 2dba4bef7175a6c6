import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * The API reference at /docs: Scalar reading /openapi.json. The Scalar bundle is the one Effect
 * ships for HttpApiScalar, loaded from Effect's own files, so the page works with no network.
 */
const scalarScript = Effect.cached(Effect.tryPromise(async () => {
  const entry = new URL(import.meta.resolve("effect"))
  const module = (await import(new URL("./http-api/internal/httpApiScalar.js", entry).href)) as { javascript: string }
  return module.javascript
}))

const page = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>Ledger API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="/docs/scalar.js"></script>
    <script>
      window.Scalar.createApiReference(document.getElementById("api-reference"), { url: "/openapi.json" })
    </script>
  </body>
</html>`

export const docsPage = Effect.succeed(HttpServerResponse.html(page))

export const scalarJs = Effect.flatten(scalarScript).pipe(
  Effect.map((javascript) =>
    HttpServerResponse.text(javascript, {
      contentType: "text/javascript; charset=utf-8",
      headers: { "Cache-Control": "public, max-age=86400" }
    })
  ),
  Effect.catch(() => Effect.succeed(HttpServerResponse.text("/* the API reference bundle is not available */", { status: 404 })))
)

