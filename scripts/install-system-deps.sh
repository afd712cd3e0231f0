#!/usr/bin/env bash
# Installs the Debian packages the tests need, when missing (idempotent; root, apt-get).
# Never downloads a browser of its own: the end-to-end tests drive Debian's Chromium.
set -euo pipefail
PKGS="apache2 apache2-utils chromium dovecot-imapd dovecot-lmtpd"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-system-deps: missing Debian packages:$missing (run as root, or install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # Stop apt from starting system services (a dovecot on :143, an apache on :80) as a side effect.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  echo "install-system-deps: installing$missing"
  # Another apt run (an unattended upgrade, a second installer) holds the dpkg lock for a while: wait for it.
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
fi
# The S3 tests run moto's server (Python moto 5 with flask and flask-cors), part of this machine's image: neither
# Debian 12 nor the npm registry ships a real S3 server that runs without a cluster (Ceph RGW needs monitors and OSDs).
if ! command -v moto_server >/dev/null 2>&1 && ! python3 -c 'import moto.server' >/dev/null 2>&1; then
  echo "install-system-deps: moto_server is missing: the S3 document-store tests will fail (pip package moto[server])" >&2
fi
echo "system deps ok"
