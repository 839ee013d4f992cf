# llsd-hooks image: compiled JavaScript and production dependencies only, non-root,
# read-only root filesystem friendly (nothing is written at run time).
# Build:  docker build -t llsd-hooks .
# Use:    docker run --rm -v "$PWD:/work" llsd-hooks render /work/samples/complete.yaml

# Node 24 is the current LTS line; the tests also run on Node 20 (engines >= 20).
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY lib ./lib
COPY hooks ./hooks
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The image's own unprivileged user (uid 1000); Kubernetes manifests also set runAsNonRoot.
USER 1000:1000
ENTRYPOINT ["node", "dist/lib/cli/main.js"]
CMD ["help"]
