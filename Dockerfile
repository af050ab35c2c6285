# mcpvm gateway image: `docker build -t mcpvm .`, then see docs/DEPLOY.md.
# Stage 1 compiles TypeScript and keeps only production dependencies; the final stage has node and
# the app, no compiler, no npm cache, no build tools, and runs as a non-root user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY plugins ./plugins
COPY bin ./bin
COPY deps/js-host-api ./deps/js-host-api
RUN npm run build && npm prune --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    MCPVM_HOME=/home/mcpvm/.mcpvm
# uid/gid 10001: not root, and not the image's own `node` user (1000), so a mounted home's owner is explicit.
RUN groupadd --gid 10001 mcpvm && useradd --uid 10001 --gid 10001 --home-dir /home/mcpvm --create-home mcpvm \
 && install -d -m 0700 -o mcpvm -g mcpvm /home/mcpvm/.mcpvm \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/bin/npm /usr/local/bin/npx /usr/local/lib/node_modules/corepack /usr/local/bin/corepack
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/plugins ./plugins
COPY --from=build --chown=root:root /app/deps/js-host-api ./deps/js-host-api
USER 10001:10001
EXPOSE 8080
# Probes: GET /healthz (alive), GET /readyz (upstreams reachable). SIGTERM drains, then exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/bin/mcpvm.js"]
CMD ["serve", "--http", "0.0.0.0:8080", "--token-file", "/run/secrets/mcpvm/gateway-token"]
