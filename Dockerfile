# Multi-stage image: compile with the dev dependencies, ship production dependencies and dist/ only.
# scripts/check-dockerfile.mjs (CI) runs these same RUN and CMD lines as plain processes.
#   docker build --build-arg BUILD_COMMIT="$(git rev-parse HEAD)" -t IMAGE .
# The operator commands run from the same image, on dist/ and the production dependencies (nothing
# is built or installed), with the gateway's environment; check-dockerfile.mjs runs these lines:
#   docker run --rm -e DATABASE_URL -e JWT_SECRET IMAGE node dist/scripts/migrate.js
#   docker run --rm -i -e DATABASE_URL -e JWT_SECRET IMAGE node dist/scripts/admin-create.js --email ops@example.com --name Operations
#   docker run --rm -e DATABASE_URL -e JWT_SECRET IMAGE node dist/scripts/audit-verify.js
#   docker run --rm -e DATABASE_URL -e JWT_SECRET IMAGE node dist/scripts/seed.js --force
# (-i: admin-create reads the password from a terminal, `-it`, or the first line of a pipe. seed: demo
# data for a staging system, which then starts only with ALLOW_DEMO_ACCOUNTS=true.) `npm run migrate`,
# `npm run admin:create -- …`, `npm run audit:verify` and `npm run seed -- --force` work too, npm in front.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY patches ./patches
RUN npm ci --include=dev --no-audit --no-fund
# What `npm run build` compiles besides scripts/: the product's sources and the compiler's settings
# (the bench builds into a directory of its own: docs/benchmarks.md).
COPY .swcrc ./
COPY src ./src
# The commit the gateway reports (/healthz, build_info, its start-up line): the build context has no
# .git, so it comes from here; unset, the image says `unknown`.
ARG BUILD_COMMIT
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# No install scripts: the Prisma client is already generated and compiled into dist/. The dependency
# patches (patches/, docs/benchmarks.md "Garbage that dies young") are applied by hand instead.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npx --no -- patch-package --error-on-fail && npm cache clean --force
COPY prisma ./prisma
COPY src/rest/operations ./src/rest/operations
# The client SDK's persisted-documents manifest: what TRUSTED_DOCUMENTS=allow|only trusts.
COPY client/src/gql/persisted-documents.json ./client/src/gql/persisted-documents.json
COPY --from=build /app/dist ./dist
# What the npm scripts of the operator commands run first: under NODE_ENV=production it builds nothing.
COPY scripts/ensure-built.mjs ./scripts/ensure-built.mjs
RUN mkdir -p data && chown node:node data
USER node
ENV PORT=4000 DATA_DIR=/app/data
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself, as the README's production start line is.
# The node flags are package.json's start script's (check-dockerfile.mjs compares them); why they are
# there and what they cost: docs/benchmarks.md, "Memory".
CMD ["node", "--liftoff-only", "--max-semi-space-size=16", "--max-old-space-size=512", "--heap-growing-percent=20", "dist/src/main.js"]
