# An mcpvm image with the stdio MCP servers a team runs, installed at build time. mcpvm's own image
# has no npm or npx (nothing is downloaded at run time, and what runs is what was approved), so a
# server that the catalog would start with `npx -y <package>` is installed here instead and started
# by its command name. Build (from the repository root, after `docker build -t mcpvm .`):
#
#   docker build -f deploy/image/with-servers.Dockerfile -t mcpvm-servers deploy/image
#
# SERVERS: npm packages, pinned (an approval covers the program it saw). Python servers: install
# them the same way from a python image, or run them as remote (HTTP) servers.
ARG NODE_IMAGE=node:20-bookworm-slim
ARG MCPVM_IMAGE=mcpvm

FROM ${NODE_IMAGE} AS servers
ARG SERVERS="@modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31"
# Behind a TLS-intercepting proxy: --build-arg EXTRA_CA_CERTS="$(cat proxy-ca.pem)", as for the Dockerfile.
ARG EXTRA_CA_CERTS=""
WORKDIR /opt/mcp-servers
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" > /tmp/extra-ca.pem; export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && npm init -y >/dev/null && npm install --omit=dev --no-audit --no-fund ${SERVERS} \
 && npm cache clean --force

FROM ${MCPVM_IMAGE}
COPY --from=servers --chown=root:root /opt/mcp-servers/node_modules /opt/mcp-servers/node_modules
# Each package's command (mcp-server-everything, mcp-server-memory, …) on the PATH the servers start with.
ENV PATH=/opt/mcp-servers/node_modules/.bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
