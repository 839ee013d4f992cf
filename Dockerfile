# llsd-hooks: the Metacontroller hook service. Multi-stage: the build stage compiles the
# TypeScript; the runtime stage holds compiled JavaScript and production dependencies only,
# runs as a non-root user and writes nothing (read-only root filesystem friendly). tsx is a
# devDependency: `npm start` (tsx, no build) is for a checkout after `npm ci`, never the image.
# `npm run build` copies what is read from disk at run time (lib/distributions/base/*.yaml)
# next to the compiled modules; package.json is copied for the version the status reports.
# The commit it is built from goes into BUILD_COMMIT (`llsd --version`, GET /version): an image
# built from `git archive` has it already; from a checkout pass it:
#   docker build --build-arg LLSD_COMMIT="$(git rev-parse HEAD)" -t llsd-hooks:0.3.0 .
#   docker run --rm -p 8080:8080 llsd-hooks:0.3.0          # the hooks on :8080
#   docker run --rm -v "$PWD:/w" --entrypoint node llsd-hooks:0.3.0 dist/lib/cli/main.js render /w/samples/complete.yaml

# Node 24 is the current LTS line; the code also runs (and is tested) on Node 20 (engines >= 20).
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY lib ./lib
COPY hooks ./hooks
RUN npm run build && npm prune --omit=dev
COPY BUILD_COMMIT ./
ARG LLSD_COMMIT=""
RUN if [ -n "$LLSD_COMMIT" ]; then echo "$LLSD_COMMIT" > BUILD_COMMIT; fi

FROM node:24-bookworm-slim
# The release this image is (package.json's version; `npm run set-version` writes it here too).
LABEL org.opencontainers.image.title="llsd-hooks" org.opencontainers.image.version="0.3.0"
ENV NODE_ENV=production PORT=8080
WORKDIR /app
COPY --from=build /src/package.json /src/BUILD_COMMIT ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The image's unprivileged user (uid 1000); the Deployment also sets runAsNonRoot.
USER 1000:1000
EXPOSE 8080
CMD ["node", "dist/hooks/main.js"]
