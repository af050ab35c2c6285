# mcpvm gateway image: `docker build -t mcpvm .`, then see docs/DEPLOY.md.
# Stage 1 compiles TypeScript (and bundles the dashboard) and keeps only production dependencies; the
# final stage has node and the app, no compiler, no package manager, no build tools, and runs as a
# non-root user.
#
# NODE_IMAGE: any Debian-based Node 20 image with npm (the build stage needs it; the final stage
# removes it). Without Docker Hub, build a stand-in with deploy/image/node-base.sh and pass
# `--build-arg NODE_IMAGE=mcpvm/node:20-bookworm-slim`.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# A builder behind a TLS-intercepting proxy passes the proxy's CA (PEM text, not a file name):
# `--build-arg EXTRA_CA_CERTS="$(cat proxy-ca.pem)"`. Only npm in this stage trusts it; the final
# image does not carry it.
ARG EXTRA_CA_CERTS=""
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" > /tmp/extra-ca.pem; export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY plugins ./plugins
COPY ui ./ui
COPY bin ./bin
COPY deps/js-host-api ./deps/js-host-api
# Source maps and type declarations of the dependencies are not read at run time (~85 MB of ~190).
RUN npm run build && npm prune --omit=dev --ignore-scripts && npm cache clean --force \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

# The run-time root: the Node image with its package managers (npm, npx, corepack, yarn) and C
# headers removed, and the mcpvm user. The gateway never installs anything.
FROM ${NODE_IMAGE} AS runtime
# uid/gid 10001: not root, and not the image's own `node` user (1000), so a mounted home's owner is
# explicit.
RUN groupadd --gid 10001 mcpvm && useradd --uid 10001 --gid 10001 --home-dir /home/mcpvm --create-home mcpvm \
 && install -d -m 0700 -o mcpvm -g mcpvm /home/mcpvm/.mcpvm \
 && rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
           /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-v* /usr/local/include /usr/local/share/doc \
           /usr/local/share/man /root/.npm /tmp/*

# Copied whole into an empty image, so what was removed above is gone rather than hidden under a
# later layer (~80 MB less, and no npm in any layer).
FROM scratch
COPY --from=runtime / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    MCPVM_HOME=/home/mcpvm/.mcpvm
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
