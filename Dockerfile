# Ledger on PostgreSQL (or embedded PGlite in /data when DATABASE_URL is unset).
#   docker build -t ledger .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://... -e LEDGER_MASTER_KEY=... ledger
# docs/operations.md says more: configuration, backups, upgrades, replicas.
FROM node:24-bookworm-slim AS dependencies
WORKDIR /app
RUN npm install -g --no-audit --no-fund pnpm@12.21.0
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/api/package.json packages/api/
COPY packages/engine/package.json packages/engine/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/testkit/package.json packages/testkit/
# The server runs from its TypeScript sources through tsx (one way in: packages/server/bin/ledger.mjs).
RUN pnpm install --frozen-lockfile --filter @ledger/server... --filter @ledger/web --filter ledger-workspace
COPY packages/web packages/web
RUN pnpm --filter @ledger/web build

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 LEDGER_DATA_DIR=/data LEDGER_LOG_FORMAT=json
WORKDIR /app
COPY --from=dependencies /app /app
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
COPY --from=dependencies /app/packages/server/app packages/server/app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "packages/server/bin/ledger.mjs", "serve"]
